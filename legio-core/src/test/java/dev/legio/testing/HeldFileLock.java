package dev.legio.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * An OS lock on a file held by another process (a child {@code java}), as a Claude Code CLI or a
 * {@code legio} command in another process would hold it: within one JVM a second lock on the file
 * would throw instead of waiting. {@link #hold} returns once the child holds the lock; {@link
 * #close} makes it let go and waits for it to end.
 */
public final class HeldFileLock implements AutoCloseable {
  private final Process child;

  private HeldFileLock(Process child) {
    this.child = child;
  }

  /** Starts a process that locks {@code file} (created when missing) and holds it. */
  public static HeldFileLock hold(Path file) throws IOException {
    Process child =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                HeldFileLock.class.getName(),
                file.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (!"held".equals(line)) {
      child.destroyForcibly();
      throw new IOException("the lock-holding process did not take the lock of " + file);
    }
    return new HeldFileLock(child);
  }

  /** Lets go of the lock: the child ends. */
  @Override
  public void close() throws IOException {
    try {
      child.getOutputStream().close(); // the child lets go when its standard input ends
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      child.destroyForcibly();
    }
  }

  /** The child: locks {@code args[0]}, prints {@code held}, lets go when its input ends. */
  public static void main(String[] args) throws IOException {
    try (FileChannel channel =
            FileChannel.open(
                Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      System.out.println("held");
      System.out.flush();
      while (System.in.read() >= 0) {
        // wait for the end of the input
      }
    }
  }
}
