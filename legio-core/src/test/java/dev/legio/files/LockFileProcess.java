package dev.legio.files;

import java.nio.file.Path;

/** A child process for {@code LockFileTest}: increments a counter file N times under a lock. */
public final class LockFileProcess {
  private LockFileProcess() {}

  public static void main(String[] args) throws Exception {
    LockFile lock = LockFile.at(Path.of(args[0]));
    Path counter = Path.of(args[1]);
    int n = Integer.parseInt(args[2]);
    for (int i = 0; i < n; i++) {
      lock.run(
          () -> {
            LockFileTest.increment(counter);
            return null;
          });
    }
  }
}
