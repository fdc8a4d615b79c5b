package dev.legio.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An exclusive lock named by a file ({@code .lock}, {@code .<session>.lock}), held by threads of
 * this JVM and by other processes.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #run} takes this JVM's lock for the file first, then an OS lock ({@link
 *       FileChannel#lock()}) on the file, created when missing (its folder must exist). The OS lock
 *       keeps other processes out; the JVM lock keeps this JVM's other threads out, which the OS
 *       lock cannot do (file locks are held per process).
 *   <li>{@link #run(Duration, Action)} waits at most a given time for the OS lock, trying it again
 *       and again ({@link FileChannel#tryLock()}), then fails with {@link LockHeldException} naming
 *       the file, having run nothing: for work on a thread that must not wait for as long as
 *       another process (a Claude Code CLI, another {@code legio} command, a stuck tool) holds the
 *       lock. This JVM's lock is still waited for without a limit: its holders are Legio's own
 *       threads, which hold it no longer than their own bounded wait and work.
 *   <li>{@link #runInProcess} takes only the JVM lock: for work that must not race this JVM's
 *       holders but must not create the file (checking whether there is anything to lock, deleting
 *       the lock file afterwards). It may call {@link #run} on the same lock file.
 *   <li>The JVM locks are a fixed set of stripes chosen by the file's path, so any number of lock
 *       files costs no memory; two lock files may share a stripe. Locks are reentrant, but a thread
 *       must not take a second lock file while it holds one (two threads taking two in opposite
 *       order could wait on each other).
 *   <li>The lock file is left in place when released. It is created owner-only ({@link OwnerOnly}):
 *       empty, but its name may tell a session's id.
 * </ul>
 */
public final class LockFile {
  private static final ReentrantLock[] STRIPES = new ReentrantLock[256];

  static {
    for (int i = 0; i < STRIPES.length; i++) {
      STRIPES[i] = new ReentrantLock();
    }
  }

  /** Something done holding a lock; it may fail with {@link IOException}. */
  @FunctionalInterface
  public interface Action<T> {
    T run() throws IOException;
  }

  private final Path file;
  private final ReentrantLock local;

  private LockFile(Path file) {
    this.file = file.toAbsolutePath().normalize();
    this.local = STRIPES[Math.floorMod(this.file.hashCode(), STRIPES.length)];
  }

  /** The lock named by {@code file}. */
  public static LockFile at(Path file) {
    return new LockFile(file);
  }

  public Path file() {
    return file;
  }

  /**
   * Runs {@code action} holding the JVM lock and the OS lock on the file.
   *
   * @throws IOException when the file cannot be opened or locked, or the action fails
   */
  public <T> T run(Action<T> action) throws IOException {
    return runInProcess(
        () -> {
          try (FileChannel channel =
                  OwnerOnly.open(
                      file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE));
              FileLock held = channel.lock()) {
            return action.run();
          }
        });
  }

  /**
   * Runs {@code action} holding the JVM lock and the OS lock on the file, waiting at most {@code
   * wait} for the OS lock (see the class comment).
   *
   * @throws LockHeldException when another process held the OS lock all that time; nothing ran
   * @throws IOException when the file cannot be opened or locked, or the action fails
   */
  public <T> T run(Duration wait, Action<T> action) throws IOException {
    long waitNanos = wait.toNanos();
    return runInProcess(
        () -> {
          try (FileChannel channel =
                  OwnerOnly.open(
                      file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE));
              FileLock held = tryLock(channel, waitNanos)) {
            return action.run();
          }
        });
  }

  /** The OS lock of {@code channel}, tried until {@code waitNanos} have passed. */
  private FileLock tryLock(FileChannel channel, long waitNanos) throws IOException {
    long start = System.nanoTime();
    long pause = 1;
    while (true) {
      FileLock held = channel.tryLock();
      if (held != null) {
        return held;
      }
      long left = waitNanos - (System.nanoTime() - start);
      if (left <= 0) {
        throw new LockHeldException(file, Duration.ofNanos(waitNanos));
      }
      try {
        Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for the lock of " + file);
      }
      pause = Math.min(pause * 2, 50);
    }
  }

  /** Runs {@code action} holding only this JVM's lock for the file. */
  public <T> T runInProcess(Action<T> action) throws IOException {
    local.lock();
    try {
      return action.run();
    } finally {
      local.unlock();
    }
  }
}
