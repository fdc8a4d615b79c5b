package dev.legio.files;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Another process held a {@link LockFile}'s OS lock for all of the time a caller would wait ({@link
 * LockFile#run(Duration, LockFile.Action)}): nothing was done under it. The message names the file
 * and how to find the holder.
 */
public final class LockHeldException extends IOException {
  private final Path file;

  public LockHeldException(Path file, Duration waited) {
    super(
        "another process holds the lock of "
            + file
            + " and kept it for more than "
            + waited.toMillis()
            + " ms (a Claude Code CLI or another legio command working on the same files, or a"
            + " stuck program; `fuser -v "
            + file
            + "` shows which)");
    this.file = file;
  }

  /** The lock file another process holds. */
  public Path file() {
    return file;
  }
}
