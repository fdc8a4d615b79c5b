package dev.legio.longterm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A process that tries to take a consolidation lock once (for {@link ConsolidationLockTest}): waits
 * for the file {@code go} in the folder, tries, prints {@code won} or {@code held}, and when it won
 * keeps the lock until the file {@code done} appears.
 */
public final class ConsolidationLockProcess {
  private ConsolidationLockProcess() {}

  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[0]);
    System.out.println("ready");
    System.out.flush();
    while (!Files.exists(folder.resolve("go"))) {
      Thread.onSpinWait();
    }
    var attempt = ConsolidationLock.tryAcquire(folder, Duration.ofMinutes(60), Clock.systemUTC());
    System.out.println(attempt instanceof ConsolidationLock.Acquired ? "won" : "held");
    System.out.flush();
    if (attempt instanceof ConsolidationLock.Acquired a) {
      while (!Files.exists(folder.resolve("done"))) {
        Thread.sleep(5);
      }
      a.lock().close();
    }
  }
}
