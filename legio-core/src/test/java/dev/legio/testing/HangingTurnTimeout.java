package dev.legio.testing;

import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The turn time-out for a test in which an agent of the real Claude Code CLI hangs on purpose while
 * another agent's healthy turn runs beside it in the same back-end, under the same time-out.
 *
 * <p>Rule: four times what one healthy turn (a new CLI process's start-up and one answer) takes on
 * this machine at the moment of asking, rounded up to whole seconds, and at least {@link
 * #AT_LEAST}. The time-out counts from the turn's start, process start-up included, and start-up is
 * what load stretches: about 2 s on a quiet machine, 18 s at a load of 8 on 2 cores, more than
 * three times that when the load tripled a minute later. A fixed time-out either fails the healthy
 * turn under load or makes the test wait out a long hang on a quiet machine; four times leaves room
 * for two processes starting at once and for the load changing between the measure and the test.
 */
public final class HangingTurnTimeout {
  /** The shortest time-out this gives, for a machine so fast the measure is all noise. */
  public static final Duration AT_LEAST = Duration.ofSeconds(10);

  private HangingTurnTimeout() {}

  /**
   * Measures one healthy turn of the real CLI (its own fake API and home, so the caller's requests
   * are not touched) and returns the time-out for a hanging turn.
   */
  public static Duration measure() {
    Path home = temporaryFolder("legio-cli-measure-home");
    Path work = temporaryFolder("legio-cli-measure-work");
    try (FakeMessagesApi api = FakeMessagesApi.start()) {
      api.enqueue(FakeMessagesApi.Reply.text("ready"));
      ClaudeCliBackend backend =
          new ClaudeCliBackend(
              RealClaudeCli.options(home, work, api, ClaudeCliBackend.Mode.PER_TURN)
                  .withTurnTimeout(Duration.ofSeconds(120)));
      long start = System.nanoTime();
      try (BackendSession session =
          backend.open(
              new SessionSpec("probe", "You answer.", null, SessionSpec.OPERATOR_ROLE, null))) {
        session.send("Ready?", e -> {});
      } finally {
        backend.close();
      }
      Duration healthy = Duration.ofNanos(System.nanoTime() - start);
      Duration timeout = forAHealthyTurnOf(healthy);
      // on stderr, in the test's report: the tests' logs show warnings only
      System.err.printf(
          "HangingTurnTimeout: a healthy turn took %d ms; a hanging turn times out after %s%n",
          healthy.toMillis(), timeout);
      return timeout;
    } finally {
      delete(home);
      delete(work);
    }
  }

  /** The time-out for a hanging turn when a healthy one takes {@code healthy}. */
  public static Duration forAHealthyTurnOf(Duration healthy) {
    long millis = healthy.multipliedBy(4).toMillis();
    Duration timeout = Duration.ofSeconds((millis + 999) / 1000);
    return timeout.compareTo(AT_LEAST) < 0 ? AT_LEAST : timeout;
  }

  private static Path temporaryFolder(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind harms nothing
    }
  }
}
