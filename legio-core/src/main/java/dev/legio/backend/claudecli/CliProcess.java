package dev.legio.backend.claudecli;

import dev.legio.backend.BackendException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running {@code claude} process: its stdin, its stdout as a queue of lines, and the tail of
 * its stderr for error messages. Killing it kills its descendants too (MCP servers, shell commands
 * the model ran), so nothing it started outlives it.
 *
 * <p>Rule: its stdout and stderr are read on platform threads of their own, never on virtual
 * threads. A read of a pipe blocks its thread in the kernel; on a virtual thread it holds one of
 * the JDK scheduler's carrier threads for as long as the process is silent, which for an idle
 * persistent session is hours. With as many silent pipes as the machine has cores every carrier is
 * held; the spare carriers the JDK adds meanwhile retire after 30 s idle, and from then on a
 * virtual thread's timed wait that expires finds no carrier to run it. A turn (a virtual thread)
 * waiting for a line with its deadline ({@link #next}) then woke only when some CLI wrote again: a
 * hanging turn outlived its {@code turn_timeout_seconds} by minutes, until the CLI's own API
 * time-out. Read on platform threads, the pipes hold no carrier, and a turn's deadline ends its
 * wait whatever other sessions do.
 */
final class CliProcess implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CliProcess.class);
  private static final int STDERR_LINES = 40;

  /** A line of stdout, or the end of it. */
  sealed interface Line {
    record Out(String text) implements Line {}

    record End() implements Line {}
  }

  private final Process process;
  private final ProcessRegistry registry;
  private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
  private final Deque<String> stderr = new ArrayDeque<>();
  private final OutputStream stdin;
  private final String label;

  /** The process's exit, as the JDK reports it: asked of the process once, shared by every wait. */
  private final CompletableFuture<Process> exited;

  private CliProcess(Process process, ProcessRegistry registry, String label) {
    this.process = process;
    this.registry = registry;
    this.label = label;
    this.stdin = process.getOutputStream();
    this.exited = process.onExit();
    Thread.ofPlatform()
        .daemon()
        .name("claude-out-" + label)
        .start(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  lines.add(new Line.Out(line));
                }
              } catch (IOException e) {
                log.debug("{}: stdout closed: {}", label, e.toString());
              } finally {
                lines.add(new Line.End());
              }
            });
    Thread.ofPlatform()
        .daemon()
        .name("claude-err-" + label)
        .start(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  log.debug("{} stderr: {}", label, line);
                  synchronized (stderr) {
                    stderr.addLast(line);
                    if (stderr.size() > STDERR_LINES) {
                      stderr.removeFirst();
                    }
                  }
                }
              } catch (IOException e) {
                log.debug("{}: stderr closed: {}", label, e.toString());
              }
            });
  }

  /**
   * Starts {@code command} in {@code directory} with Legio's own environment, less {@code
   * withheld}, and {@code environment} added.
   */
  static CliProcess start(
      List<String> command,
      Path directory,
      Map<String, String> environment,
      java.util.Set<String> withheld,
      ProcessRegistry registry,
      String label) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    builder.environment().keySet().removeAll(withheld);
    builder.environment().putAll(environment);
    try {
      Process process = builder.start();
      registry.add(process);
      log.debug("{}: started claude (pid {})", label, process.pid());
      return new CliProcess(process, registry, label);
    } catch (IOException e) {
      throw new BackendException(
          "could not start the Claude Code CLI (" + command.get(0) + "): " + e.getMessage(), e);
    }
  }

  long pid() {
    return process.pid();
  }

  /** Runs {@code then} once the process has ended, however it ended. */
  void whenEnded(Runnable then) {
    exited.thenRun(then);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Writes one line to stdin and flushes it. */
  void writeLine(String line) {
    try {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      throw new BackendException(
          "the Claude Code CLI (" + label + ") stopped reading its input: " + describeExit(), e);
    }
  }

  /** Closes stdin: the CLI finishes what it is doing and exits. */
  void closeInput() {
    try {
      stdin.close();
    } catch (IOException e) {
      log.debug("{}: closing stdin: {}", label, e.toString());
    }
  }

  /** The next line of stdout, waiting until {@code deadlineNanos} ({@link System#nanoTime()}). */
  Optional<Line> next(long deadlineNanos) throws InterruptedException {
    long wait = deadlineNanos - System.nanoTime();
    return Optional.ofNullable(lines.poll(Math.max(0, wait), TimeUnit.NANOSECONDS));
  }

  /** The last lines the process wrote to stderr, joined (empty when none). */
  String stderrTail() {
    synchronized (stderr) {
      return String.join("\n", stderr);
    }
  }

  /** Waits briefly for the process to exit and describes how it ended, with its stderr. */
  String describeExit() {
    try {
      process.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // let the stderr reader catch up with the last lines
    String tail = stderrTail();
    String how = process.isAlive() ? "still running" : "exit code " + process.exitValue();
    return how + (tail.isBlank() ? "" : "; it said: " + tail.strip());
  }

  /** Waits up to {@code millis} for the process to exit on its own, then kills it and its tree. */
  void stop(long millis) {
    closeInput();
    try {
      if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
    killDescendants(process.toHandle());
    registry.remove(process);
  }

  /**
   * {@link #stop} with no thread waiting for it: stdin is closed now, and the future completes once
   * the process has exited, or, when it has not within {@code millis}, once it has been killed with
   * its tree (or has not reported its exit 2 s after the kill, as {@link ProcessRegistry#killTree}
   * waits); either way it is out of the registry by then. The wait is the JDK's own for the
   * process's exit ({@link Process#onExit}), whose time-out runs on the JDK's one scheduler thread
   * for delays: a turn's exiting process costs no thread of its own.
   */
  CompletableFuture<Void> stopInBackground(long millis) {
    closeInput();
    return exited
        .thenApply(ended -> true)
        .completeOnTimeout(false, millis, TimeUnit.MILLISECONDS)
        .thenCompose(inTime -> inTime ? exited : killedInBackground())
        .handle(
            (ended, failure) -> {
              killDescendants(process.toHandle());
              registry.remove(process);
              return null;
            });
  }

  /**
   * Kills the process and its tree without waiting: completes once it has exited, or 2 s after the
   * kill when it has not reported its exit by then.
   */
  private CompletableFuture<Process> killedInBackground() {
    log.debug("{}: did not exit in time after its turn; killing it", label);
    ProcessRegistry.signalKill(process.toHandle());
    return exited.copy().completeOnTimeout(process, 2, TimeUnit.SECONDS);
  }

  /** Kills the process and everything it started, now. */
  void kill() {
    ProcessRegistry.killTree(process.toHandle());
    registry.remove(process);
  }

  private static void killDescendants(ProcessHandle handle) {
    handle.descendants().forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public void close() {
    stop(2_000);
  }
}
