package dev.legio.files;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The lock of a folder of files: a {@link LockFile} on the folder's {@code .lock} file, held by
 * threads of this JVM and by other processes. Memoria's stores and the agents' long-term memory
 * folders both take it around every read-modify-write.
 */
public final class FolderLock {
  /** The lock file in each folder. */
  public static final String LOCK_FILE = ".lock";

  private FolderLock() {}

  /** Something done with a folder's files under its lock. */
  @FunctionalInterface
  public interface Action<T> extends LockFile.Action<T> {}

  /**
   * Runs {@code action} holding {@code folder}'s lock; creates the folder first, owner-only.
   *
   * @throws IOException when the folder cannot be created or locked, or the action fails
   */
  public static <T> T run(Path folder, Action<T> action) throws IOException {
    LockFile lock = LockFile.at(folder.resolve(LOCK_FILE));
    return lock.runInProcess(
        () -> {
          OwnerOnly.createDirectories(folder);
          return lock.run(action);
        });
  }
}
