package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.RealClaudeCli;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A per-turn session against the real Claude Code CLI (which talks to a {@link FakeMessagesApi}),
 * behind a script that, once the CLI has exited, itself exits only when the test lets it: a turn
 * returns before its process has exited, the next turn starts its process only after that, and
 * closing the session reaps it.
 */
class PerTurnCliSessionTest {
  @TempDir Path home;
  @TempDir Path work;
  private FakeMessagesApi api;
  private ClaudeCliBackend backend;
  private SlowToExitCli cli;

  @BeforeEach
  void start() throws Exception {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    ClaudeCliBackend.Options real = RealClaudeCli.options(home, work, api, Mode.PER_TURN);
    cli = SlowToExitCli.around(real.executable(), work);
    backend =
        new ClaudeCliBackend(
            new ClaudeCliBackend.Options(
                cli.executable(),
                Mode.PER_TURN,
                "default",
                List.of(),
                real.turnTimeout(),
                work,
                real.environment(),
                McpConfigSource.none()));
  }

  @AfterEach
  void stop() {
    backend.close();
    api.close();
  }

  private static SessionSpec spec() {
    return new SessionSpec("vorenus", "You are vorenus.", null, SessionSpec.OPERATOR_ROLE, null);
  }

  @Test
  void aTurnReturnsBeforeItsProcessExitsAndTheNextStartsOnlyOnceItHas() throws Exception {
    api.enqueue(Reply.text("The north road is clear."), Reply.text("I saw three carts."));
    try (BackendSession session = backend.open(spec())) {
      assertThat(session.send("Scout the north road", e -> {}).text())
          .isEqualTo("The north road is clear.");

      // the process still runs: it cannot exit before the test lets it
      List<ProcessHandle> exiting = backend.processHandles();
      assertThat(exiting).hasSize(1).allMatch(ProcessHandle::isAlive);
      assertThat(cli.log()).containsExactly("start");
      // and no thread of Legio's waits for its exit: the session's only threads read its pipes
      String label = "vorenus/" + session.backendSessionId().substring(0, 8);
      assertThat(threadsNamedFor(label))
          .containsExactlyInAnyOrder("claude-out-" + label, "claude-err-" + label);

      // let it exit a second into the next turn, which meanwhile must not start its process
      Thread letGo =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      Thread.sleep(1_000);
                      cli.release();
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  });
      assertThat(session.send("What did you see?", e -> {}).text()).isEqualTo("I saw three carts.");
      letGo.join();
      assertThat(exiting).noneMatch(ProcessHandle::isAlive);
    }

    assertThat(cli.log()).containsExactly("start", "end", "start", "end");
    // the second process resumed the first's conversation
    assertThat(String.join("\n", api.scriptedRequests().get(1).messageTexts()))
        .contains("Scout the north road")
        .contains("The north road is clear.");
    assertThat(backend.runningProcesses()).isZero();
  }

  @Test
  void closingTheSessionReapsTheProcessOfItsLastTurn() throws Exception {
    api.enqueue(Reply.text("Noted."));
    BackendSession session = backend.open(spec());
    session.send("Remember the eagle", e -> {});
    long turnEnded = System.nanoTime();
    List<ProcessHandle> exiting = backend.processHandles();
    assertThat(exiting).hasSize(1).allMatch(ProcessHandle::isAlive);

    session.close(); // the script never exits on its own: it is killed
    // after the close's 2 s wait, not once the 5 s a turn's process is given to exit are up
    assertThat(Duration.ofNanos(System.nanoTime() - turnEnded))
        .isLessThan(Duration.ofMillis(4_500));

    assertThat(exiting).noneMatch(ProcessHandle::isAlive);
    assertThat(backend.runningProcesses()).isZero();
    assertThat(cli.log()).containsExactly("start");
  }

  /** The names of the live threads whose name ends with {@code label}. */
  private static List<String> threadsNamedFor(String label) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.endsWith(label))
        .toList();
  }
}
