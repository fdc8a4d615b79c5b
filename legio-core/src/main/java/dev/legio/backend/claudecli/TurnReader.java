package dev.legio.backend.claudecli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.backend.BackendException;
import dev.legio.backend.TurnTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads one turn of a CLI process's output, up to its {@code result} line; the one reader of
 * session turns and of one-question processes.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Lines that are not JSON objects are logged and skipped ({@link StreamJson#parse}); every
 *       other line before the {@code result} goes to the caller.
 *   <li>The turn must end before its deadline ({@code turn_timeout_seconds}); otherwise it fails
 *       with a {@link TurnTimeoutException} saying so (the caller kills the process). An interrupt
 *       fails it too, keeping the thread's interrupt flag. The deadline bounds the whole wait,
 *       however many other CLI processes sit silent meanwhile (their pipes hold no virtual-thread
 *       carrier: {@link CliProcess}).
 *   <li>Output that ends before a {@code result} line fails as the caller decides from the
 *       process's exit ({@link CliProcess#describeExit}).
 *   <li>A result is an error when it says {@code is_error} or its {@code subtype} is not {@code
 *       success} ({@link #isError}).
 * </ul>
 */
final class TurnReader {
  private final CliProcess process;
  private final long deadline;
  private final Duration timeout;
  private final String label;

  /**
   * @param deadline when the turn must be over ({@link #deadline})
   * @param timeout the turn's time-out, for the message when it passes
   * @param label the process, in the logs
   */
  TurnReader(CliProcess process, long deadline, Duration timeout, String label) {
    this.process = process;
    this.deadline = deadline;
    this.timeout = timeout;
    this.label = label;
  }

  /**
   * The deadline ({@link System#nanoTime}) of a turn starting now that may take {@code timeout}.
   */
  static long deadline(Duration timeout) {
    return System.nanoTime() + timeout.toNanos();
  }

  /**
   * The turn's {@code result} line.
   *
   * @param before receives every JSON line before it, in order
   * @param ended the failure to throw when the output ends first, from the process's exit
   */
  JsonNode result(Consumer<JsonNode> before, Function<String, RuntimeException> ended) {
    while (true) {
      CliProcess.Line next = next();
      if (next instanceof CliProcess.Line.Out out) {
        Optional<JsonNode> parsed = StreamJson.parse(out.text(), label);
        if (parsed.isEmpty()) {
          continue;
        }
        if ("result".equals(parsed.get().path("type").asText())) {
          return parsed.get();
        }
        before.accept(parsed.get());
      } else {
        throw ended.apply(process.describeExit());
      }
    }
  }

  /** True when {@code result} reports a failed turn. */
  static boolean isError(JsonNode result) {
    return result.path("is_error").asBoolean(false)
        || !"success".equals(result.path("subtype").asText("success"));
  }

  /**
   * The failure of a turn interrupted while it waited for the CLI; the thread keeps its interrupt
   * flag.
   */
  static BackendException interrupted(InterruptedException e) {
    Thread.currentThread().interrupt();
    return new BackendException("interrupted while waiting for the Claude Code CLI", e);
  }

  /** The process's next line, or its end; an interrupt or the deadline passing fails the turn. */
  private CliProcess.Line next() {
    Optional<CliProcess.Line> next;
    try {
      next = process.next(deadline);
    } catch (InterruptedException e) {
      throw interrupted(e);
    }
    if (next.isEmpty()) {
      throw timedOut(timeout);
    }
    return next.get();
  }

  /** The failure of a turn whose time-out {@code timeout} has passed. */
  static TurnTimeoutException timedOut(Duration timeout) {
    return new TurnTimeoutException(
        "the Claude Code CLI did not answer within "
            + timeout.toSeconds()
            + " s (turn_timeout_seconds); its process was stopped");
  }
}
