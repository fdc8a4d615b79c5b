package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  void theLockFileHoldsTheUnixTimeATokenAndItsHolderAndIsRemovedOnRelease() throws Exception {
    var attempt = ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(attempt).isInstanceOf(ConsolidationLock.Acquired.class);
    List<String> lines = Files.readAllLines(lockFile());
    assertThat(lines.getFirst()).isEqualTo(Long.toString(clock.instant().getEpochSecond()));
    assertThat(lines)
        .anyMatch(l -> l.matches("token [0-9a-f-]{36}"))
        .contains(
            "host " + ConsolidationLockHolder.thisProcess().host(),
            "pid " + ProcessHandle.current().pid());
    ((ConsolidationLock.Acquired) attempt).lock().close();
    assertThat(lockFile()).doesNotExist();
  }

  @Test
  void aLiveLockRefusesAndSaysSinceAndWhoHoldsIt() throws Exception {
    Instant since = clock.instant().minus(Duration.ofMinutes(59));
    Files.writeString(lockFile(), Long.toString(since.getEpochSecond()));
    var attempt = ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(attempt).isEqualTo(new ConsolidationLock.Held(lockFile(), since, null));
    assertThat(Files.readString(lockFile())).isEqualTo(Long.toString(since.getEpochSecond()));

    Files.delete(lockFile());
    var mine = (ConsolidationLock.Acquired) ConsolidationLock.tryAcquire(folder, STALE, clock);
    var held = (ConsolidationLock.Held) ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(held.holder()).isEqualTo(ConsolidationLockHolder.thisProcess());
    mine.lock().close();
  }

  @Test
  void theHeartbeatRenewsAHeldLockSoALongRunIsNeverTakenForAStaleOne() throws Exception {
    Duration stale = Duration.ofMillis(600); // a heartbeat every 200 ms
    var held = (ConsolidationLock.Acquired) ConsolidationLock.tryAcquire(folder, stale, clock);
    clock.advance(Duration.ofMinutes(10)); // far past the stale age: only a renewal keeps it live
    String renewed = "renewed " + clock.instant().getEpochSecond();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!Files.readAllLines(lockFile()).contains(renewed) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(ConsolidationLock.tryAcquire(folder, stale, clock))
        .isInstanceOf(ConsolidationLock.Held.class);
    held.lock().close();
    assertThat(lockFile()).doesNotExist();
  }

  @Test
  void aHolderWhoseLockWasTakenOverWritesNothingAndLeavesTheSuccessorsLock() throws Exception {
    var first = (ConsolidationLock.Acquired) ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(first.lock().whileHeld(() -> "written")).isEqualTo("written");
    clock.advance(Duration.ofMinutes(61)); // it stalled: no heartbeat within the hour
    var second = (ConsolidationLock.Acquired) ConsolidationLock.tryAcquire(folder, STALE, clock);
    List<String> ran = new ArrayList<>();

    assertThatThrownBy(() -> first.lock().whileHeld(() -> ran.add("late write")))
        .isInstanceOf(ConsolidationLock.Lost.class)
        .hasMessageContaining("lost its lock");
    assertThat(ran).isEmpty();
    first.lock().renew();
    assertThat(Files.readAllLines(lockFile()))
        .doesNotContain("renewed " + clock.instant().getEpochSecond());
    first.lock().close();
    assertThat(lockFile()).exists();
    assertThat(second.lock().whileHeld(() -> "mine")).isEqualTo("mine");
    second.lock().close();
  }

  @Test
  void aLockWhoseHolderProcessEndedIsTakenOverAtOnce() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "30").start();
    Instant started = sleeper.toHandle().info().startInstant().orElseThrow();
    sleeper.destroyForcibly().waitFor();
    var gone =
        new ConsolidationLockHolder(
            ConsolidationLockHolder.thisProcess().host(), sleeper.pid(), started);
    Files.writeString(
        lockFile(),
        new ConsolidationLockContent(clock.instant(), null, "their-token", gone).render());

    var attempt = ConsolidationLock.tryAcquire(folder, STALE, clock);

    assertThat(attempt).isInstanceOf(ConsolidationLock.Acquired.class);
    assertThat(((ConsolidationLock.Acquired) attempt).replaced())
        .isEqualTo(new ConsolidationLock.Replaced(clock.instant(), gone, true));
    ((ConsolidationLock.Acquired) attempt).lock().close();
  }

  @Test
  void aStaleLockIsTakenOverAndItsHolderDoesNotRemoveTheSuccessorsLock() throws Exception {
    var first = (ConsolidationLock.Acquired) ConsolidationLock.tryAcquire(folder, STALE, clock);
    Instant firstAt = clock.instant();
    clock.advance(Duration.ofMinutes(61));
    var second = ConsolidationLock.tryAcquire(folder, STALE, clock);
    assertThat(second).isInstanceOf(ConsolidationLock.Acquired.class);
    assertThat(((ConsolidationLock.Acquired) second).replaced())
        .isEqualTo(
            new ConsolidationLock.Replaced(firstAt, ConsolidationLockHolder.thisProcess(), false));
    // The hung first holder finishes late: the successor's lock stays.
    first.lock().close();
    assertThat(Files.readAllLines(lockFile()).getFirst())
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
