package dev.legio.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.HeldFileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockFileTest {
  @TempDir Path dir;

  /** Read, wait a little, write: a lost update shows as a count below the expected one. */
  static void increment(Path counter) throws java.io.IOException {
    int n = Files.exists(counter) ? Integer.parseInt(Files.readString(counter).strip()) : 0;
    Thread.onSpinWait();
    Files.writeString(counter, Integer.toString(n + 1));
  }

  @Test
  void threadsOfThisProcessTakeTurns() throws Exception {
    Path counter = dir.resolve("count");
    LockFile lock = LockFile.at(dir.resolve(".count.lock"));
    int threads = 8;
    int each = 50;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = 0; i < each; i++) {
                  lock.run(
                      () -> {
                        increment(counter);
                        return null;
                      });
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(Files.readString(counter)).isEqualTo(Integer.toString(threads * each));
  }

  @Test
  void processesTakeTurns() throws Exception {
    Path counter = dir.resolve("count");
    Path lockFile = dir.resolve(".count.lock");
    int each = 100;
    List<Process> children = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      children.add(
          new ProcessBuilder(
                  ProcessHandle.current().info().command().orElse("java"),
                  "-cp",
                  System.getProperty("java.class.path"),
                  LockFileProcess.class.getName(),
                  lockFile.toString(),
                  counter.toString(),
                  Integer.toString(each))
              .redirectErrorStream(true)
              .start());
    }
    for (Process child : children) {
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue())
          .as(new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
          .isZero();
    }
    assertThat(Files.readString(counter)).isEqualTo(Integer.toString(2 * each));
  }

  @Test
  void aBoundedRunGivesUpNamingTheFileWhileAnotherProcessHoldsTheLockAndRunsOnceItLetsGo()
      throws Exception {
    LockFile lock = LockFile.at(dir.resolve(".session.lock"));
    java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
    try (HeldFileLock other = HeldFileLock.hold(lock.file())) {
      long start = System.nanoTime();
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(20),
          () ->
              assertThatThrownBy(
                      () -> lock.run(java.time.Duration.ofMillis(300), ran::incrementAndGet))
                  .isInstanceOf(LockHeldException.class)
                  .hasMessageContaining("another process holds the lock of " + lock.file())
                  .hasMessageContaining("fuser"));
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
          .as("it waited about the time it was given")
          .isGreaterThanOrEqualTo(java.time.Duration.ofMillis(300))
          .isLessThan(java.time.Duration.ofSeconds(10));
      assertThat(ran).as("nothing ran without the lock").hasValue(0);
    }

    assertThat((int) lock.run(java.time.Duration.ofMillis(300), ran::incrementAndGet)).isEqualTo(1);
  }

  @Test
  void aBoundedRunWaitsForALockLetGoWithinItsTime() throws Exception {
    LockFile lock = LockFile.at(dir.resolve(".session.lock"));
    HeldFileLock other = HeldFileLock.hold(lock.file());
    Thread letGo =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    Thread.sleep(200);
                    other.close();
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    try {
      assertThat(lock.run(java.time.Duration.ofSeconds(60), () -> "written")).isEqualTo("written");
    } finally {
      letGo.join();
    }
  }

  @Test
  void inProcessWorkCreatesNoFileAndMayTakeTheFileLockInside() throws Exception {
    LockFile lock = LockFile.at(dir.resolve(".session.lock"));

    int seen =
        lock.runInProcess(
            () -> {
              assertThat(Files.exists(lock.file())).isFalse();
              return lock.run(() -> Files.exists(lock.file()) ? 1 : 0);
            });

    assertThat(seen).isEqualTo(1);
    assertThat(lock.file()).exists();
  }

  @Test
  void aFolderLockCreatesItsFolderAndLockFile() throws Exception {
    Path folder = dir.resolve("castra/acta");

    String result = FolderLock.run(folder, () -> "done");

    assertThat(result).isEqualTo("done");
    assertThat(folder.resolve(FolderLock.LOCK_FILE)).exists();
  }
}
