package dev.legio.memory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock of a folder of memory files, held by threads of this JVM (a lock per folder) and by
 * other processes (an OS lock on the folder's {@code .lock} file). Memoria's stores and the agents'
 * long-term memory folders both take it around every read-modify-write.
 */
public final class FolderLock {
  /** The lock file in each folder. */
  public static final String LOCK_FILE = ".lock";

  private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  private FolderLock() {}

  /** Something done with a folder's files under its lock. */
  @FunctionalInterface
  public interface Action<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code action} holding {@code folder}'s lock; creates the folder first.
   *
   * @throws IOException when the folder cannot be created or locked, or the action fails
   */
  public static <T> T run(Path folder, Action<T> action) throws IOException {
    Path lockFile = folder.resolve(LOCK_FILE);
    ReentrantLock lock = LOCKS.computeIfAbsent(lockFile, p -> new ReentrantLock());
    lock.lock();
    try {
      Files.createDirectories(folder);
      try (FileChannel channel =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = channel.lock()) {
        return action.run();
      }
    } finally {
      lock.unlock();
    }
  }
}
