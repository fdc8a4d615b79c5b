package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsolidationLockTest {
  private static final Duration STALE = Duration.ofMinutes(60);
  @TempDir Path folder;
  private final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

  private Path lockFile() {
    return folder.resolve(ConsolidationLock.FILE_NAME);
  }

  @Test
  void theLockFileHoldsTheUnixTimeAndIsRemovedOnRelease() throws Exception {
    var attempt = ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(attempt).isInstanceOf(ConsolidationLock.Acquired.class);
    assertThat(Files.readString(lockFile()))
        .isEqualTo(Long.toString(clock.instant().getEpochSecond()));
    ((ConsolidationLock.Acquired) attempt).lock().close();
    assertThat(lockFile()).doesNotExist();
  }

  @Test
  void aLiveLockRefusesAndSaysSince() throws Exception {
    Instant since = clock.instant().minus(Duration.ofMinutes(59));
    Files.writeString(lockFile(), Long.toString(since.getEpochSecond()));
    var attempt = ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(attempt).isEqualTo(new ConsolidationLock.Held(since));
    assertThat(Files.readString(lockFile())).isEqualTo(Long.toString(since.getEpochSecond()));
  }

  @Test
  void aStaleLockIsTakenOverAndItsHolderDoesNotRemoveTheSuccessorsLock() throws Exception {
    var first = (ConsolidationLock.Acquired) ConsolidationLock.tryAcquire(folder, STALE, clock);
    Instant firstAt = clock.instant();
    clock.advance(Duration.ofMinutes(61));
    var second = ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(second).isInstanceOf(ConsolidationLock.Acquired.class);
    assertThat(((ConsolidationLock.Acquired) second).tookOverSince()).isEqualTo(firstAt);
    // The hung first holder finishes late: the successor's lock stays.
    first.lock().close();
    assertThat(Files.readString(lockFile()))
        .isEqualTo(Long.toString(clock.instant().getEpochSecond()));
    ((ConsolidationLock.Acquired) second).lock().close();
    assertThat(lockFile()).doesNotExist();
  }

  @Test
  void aLockWithoutANumberIsDatedByItsFile() throws Exception {
    Files.writeString(lockFile(), "");
    // Just written: live, whatever the injected clock says (the file's age is counted on the file
    // system's clock, the real one, back from the injected clock's now).
    assertThat(ConsolidationLock.tryAcquire(folder, STALE, clock))
        .isInstanceOf(ConsolidationLock.Held.class);
    clock.advance(Duration.ofHours(5));
    assertThat(ConsolidationLock.tryAcquire(folder, STALE, clock))
        .isInstanceOf(ConsolidationLock.Held.class);
    // Written 61 minutes ago by the file system's clock: stale.
    Files.setLastModifiedTime(
        lockFile(),
        java.nio.file.attribute.FileTime.from(Instant.now().minus(Duration.ofMinutes(61))));
    assertThat(ConsolidationLock.tryAcquire(folder, STALE, clock))
        .isInstanceOf(ConsolidationLock.Acquired.class);
  }

  @Test
  void ofManyThreadsTakingAFreeOrAStaleLockExactlyOneWins() throws Exception {
    for (boolean stale : new boolean[] {false, true}) {
      Files.deleteIfExists(lockFile());
      if (stale) {
        Files.writeString(
            lockFile(), Long.toString(clock.instant().minus(Duration.ofHours(3)).getEpochSecond()));
      }
      int threads = 8;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<ConsolidationLock.Attempt>> attempts = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        attempts.add(
            pool.submit(
                () -> {
                  go.await();
                  return ConsolidationLock.tryAcquire(folder, STALE, clock);
                }));
      }
      go.countDown();
      int won = 0;
      for (Future<ConsolidationLock.Attempt> a : attempts) {
        if (a.get() instanceof ConsolidationLock.Acquired) {
          won++;
        }
      }
      pool.shutdown();
      assertThat(won).as(stale ? "stale lock" : "free lock").isEqualTo(1);
    }
  }

  @Test
  void ofSeveralProcessesTakingOverAStaleLockExactlyOneWins() throws Exception {
    Files.writeString(
        lockFile(), Long.toString(Instant.now().minus(Duration.ofHours(2)).getEpochSecond()));
    String javaBin = ProcessHandle.current().info().command().orElse("java");
    List<Process> processes = new ArrayList<>();
    List<java.io.BufferedReader> outputs = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        Process p =
            new ProcessBuilder(
                    javaBin,
                    "-cp",
                    System.getProperty("java.class.path"),
                    ConsolidationLockProcess.class.getName(),
                    folder.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        processes.add(p);
        outputs.add(p.inputReader());
      }
      for (java.io.BufferedReader out : outputs) {
        assertThat(out.readLine()).isEqualTo("ready");
      }
      Files.createFile(folder.resolve("go"));
      List<String> answers = new ArrayList<>();
      for (java.io.BufferedReader out : outputs) {
        answers.add(out.readLine());
      }
      assertThat(answers).containsExactlyInAnyOrder("won", "held", "held");
      Files.createFile(folder.resolve("done"));
      for (Process p : processes) {
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      }
      assertThat(lockFile()).doesNotExist();
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
  }
}
