package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Block;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.RealClaudeCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The back-end against the real Claude Code CLI, which talks to a {@link FakeMessagesApi}. */
class ClaudeCliBackendTest {
  @TempDir Path home;
  @TempDir Path work;
  private FakeMessagesApi api;
  private final List<ClaudeCliBackend> backends = new ArrayList<>();

  @BeforeEach
  void start() {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
  }

  @AfterEach
  void stop() {
    backends.forEach(ClaudeCliBackend::close);
    api.close();
  }

  private ClaudeCliBackend backend(Mode mode) {
    return backend(mode, Duration.ofSeconds(60));
  }

  private ClaudeCliBackend backend(Mode mode, Duration timeout) {
    ClaudeCliBackend b =
        new ClaudeCliBackend(RealClaudeCli.options(home, work, api, mode).withTurnTimeout(timeout));
    backends.add(b);
    return b;
  }

  private static SessionSpec spec(String resumeId) {
    return new SessionSpec(
        "vorenus", "You are vorenus, a scout.", null, SessionSpec.OPERATOR_ROLE, resumeId);
  }

  private static TurnResult send(BackendSession s, String text) {
    return s.send(text, e -> {});
  }

  /**
   * Waits until the CLI has written the conversation's first turn to its session file: it writes
   * that file a moment after answering, and a process killed before then takes the conversation
   * with it (the back-end then reports the session lost, which another test covers).
   */
  private void awaitConversationOnDisk(BackendSession s, String text) throws Exception {
    String file = s.backendSessionId() + ".jsonl";
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(home)) {
        boolean written =
            files
                .filter(f -> f.getFileName().toString().equals(file))
                .anyMatch(f -> readQuietly(f).contains(text));
        if (written) {
          return;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the CLI never wrote " + file + " under " + home);
  }

  /** The CLI's transcript of {@code s} as it is on disk now, or "" when there is none. */
  private String cliTranscript(BackendSession s) {
    String file = s.backendSessionId() + ".jsonl";
    try (java.util.stream.Stream<Path> files = Files.walk(home)) {
      return files
          .filter(f -> f.getFileName().toString().equals(file))
          .map(ClaudeCliBackendTest::readQuietly)
          .findFirst()
          .orElse("");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String readQuietly(java.nio.file.Path f) {
    try {
      return java.nio.file.Files.readString(f);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theSecondTurnCarriesTheFirst(Mode mode) {
    api.enqueue(
        Reply.text("The north road is clear.").withUsage(120, 9, 0, 0),
        Reply.text("I saw three carts.").withUsage(180, 7, 0, 0));
    ClaudeCliBackend backend = backend(mode);

    try (BackendSession session = backend.open(spec(null))) {
      assertThat(session.resumed()).isFalse();
      assertThat(UUID.fromString(session.backendSessionId())).isNotNull();
      TurnResult first = send(session, "Scout the north road");
      // read at once: a turn is in the CLI's transcript by the time its result is back
      // (EagerTranscript), even while a persistent process lives on
      String transcript = cliTranscript(session);
      TurnResult second = send(session, "What did you see?");

      assertThat(first.text()).isEqualTo("The north road is clear.");
      assertThat(transcript).contains("Scout the north road").contains("The north road is clear.");
      assertThat(second.text()).isEqualTo("I saw three carts.");
    }

    List<FakeMessagesApi.Request> requests = api.scriptedRequests();
    assertThat(requests).hasSize(2);
    assertThat(requests.get(0).systemText()).contains("You are vorenus, a scout.");
    assertThat(requests.get(0).lastUserText()).contains("Scout the north road");
    List<String> secondTurn = requests.get(1).messageTexts();
    assertThat(String.join("\n", secondTurn))
        .contains("Scout the north road")
        .contains("The north road is clear.");
    assertThat(secondTurn.get(secondTurn.size() - 1)).contains("What did you see?");
    assertThat(requests.get(1).systemText()).contains("You are vorenus, a scout.");
    assertThat(backend.runningProcesses()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void eachTurnCarriesTheCostTheCliReportsForThatTurn(Mode mode) {
    api.enqueue(
        Reply.text("The north road is clear.").withUsage(100_000, 1_000, 0, 0),
        Reply.text("I saw three carts.").withUsage(100_000, 1_000, 0, 0));
    try (BackendSession session = backend(mode).open(spec(null))) {
      Double first = send(session, "Scout the north road").usage().reportedCostUsd();
      Double second = send(session, "What did you see?").usage().reportedCostUsd();

      assertThat(first).isNotNull().isPositive();
      // The same tokens cost the same: the figure is the turn's own, not the session's so far.
      assertThat(second).isCloseTo(first, org.assertj.core.data.Percentage.withPercentage(1));
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theContextIsWhatTheLastRequestReadAndWroteAgainstTheWindowTheCliReports(Mode mode) {
    api.enqueue(
        Reply.text("The north road is clear.").withUsage(1_200, 30, 5_000, 700),
        Reply.toolUse("Glob", "{\"pattern\":\"*.txt\"}").withUsage(1_000, 50, 200, 300),
        Reply.text("No text files.").withUsage(1_500, 20, 400, 100));
    // An override the CLI's own figure for the model wins over.
    ClaudeCliBackend backend =
        new ClaudeCliBackend(
            RealClaudeCli.options(home, work, api, mode)
                .withContextWindows(java.util.Map.of("claude", 123_456)));
    backends.add(backend);

    try (BackendSession session = backend.open(spec(null))) {
      TurnResult first = send(session, "Scout the north road");
      // One request: 1,200 uncached + 5,000 cache read + 700 cache write + 30 written.
      assertThat(first.context().tokens()).isEqualTo(6_930);
      assertThat(first.context().window()).isEqualTo(200_000);
      assertThat(first.context().compactionDisabled()).isFalse();

      TurnResult second = send(session, "List the text files");
      // Two requests (the tool call, then the answer): the result's usage adds them up
      // (2,500 input); the context is what the last one read (1,500 + 400 + 100), plus what it
      // wrote (at most its 20 tokens).
      assertThat(second.usage().inputTokens()).isEqualTo(3_500);
      assertThat(second.context().tokens()).isBetween(2_000L, 2_020L);
      assertThat(second.context().window()).isEqualTo(200_000);
    }
    assertThat(api.scriptedRequests()).hasSize(3);
  }

  @Test
  void aNewBackEndResumesTheConversationById() {
    api.enqueue(Reply.text("Noted."), Reply.text("You asked me to remember the eagle."));
    String id;
    ClaudeCliBackend before = backend(Mode.PERSISTENT);
    try (BackendSession session = before.open(spec(null))) {
      id = session.backendSessionId();
      send(session, "Remember the eagle");
    }
    before.close();

    ClaudeCliBackend after = backend(Mode.PER_TURN);
    try (BackendSession session = after.open(spec(id))) {
      assertThat(session.resumed()).isTrue();
      assertThat(session.backendSessionId()).isEqualTo(id);
      assertThat(send(session, "What did I ask?").text())
          .isEqualTo("You asked me to remember the eagle.");
    }
    assertThat(String.join("\n", api.scriptedRequests().get(1).messageTexts()))
        .contains("Remember the eagle")
        .contains("Noted.");
  }

  private static final String ORDERS_PREAMBLE =
      "Let me read the standing orders of the legion before I answer, Caesar, so that nothing is"
          + " missed.";

  @Test
  void usageIsWhatTheApiReportedOverTheWholeTurnAndBlocksBecomeStatusLines() throws Exception {
    Files.writeString(work.resolve("orders.txt"), "hold the bridge\n");
    api.enqueue(
        Reply.of(
                new Block.Thinking("Which orders?"),
                new Block.Text(ORDERS_PREAMBLE),
                new Block.ToolUse(
                    "toolu_read1",
                    "Read",
                    "{\"file_path\":\"" + work.resolve("orders.txt") + "\"}"))
            .withUsage(1000, 40, 300, 50),
        Reply.of(new Block.ToolUse("toolu_edicta1", "mcp__memoria__list_edicta", "{}"))
            .withUsage(1200, 30, 20, 10),
        Reply.text("The orders: hold the bridge.").withUsage(1500, 25, 7, 3));
    List<BackendEvent> events = new CopyOnWriteArrayList<>();

    TurnResult result;
    try (BackendSession session = backend(Mode.PER_TURN).open(spec(null))) {
      result = session.send("What are the orders?", events::add);
    }

    assertThat(result.text()).isEqualTo("The orders: hold the bridge.");
    // every API call of the turn, added up
    assertThat(result.usage().outputTokens()).isEqualTo(40 + 30 + 25);
    assertThat(result.usage().cacheReadTokens()).isEqualTo(300 + 20 + 7);
    assertThat(result.usage().cacheCreationTokens()).isEqualTo(50 + 10 + 3);
    assertThat(result.usage().inputTokens())
        .isEqualTo((1000 + 1200 + 1500) + (300 + 20 + 7) + (50 + 10 + 3));
    assertThat(result.usage().estimated()).isFalse();
    // the tool really ran: its result went back to the model
    assertThat(String.join("\n", api.scriptedRequests().get(1).messageTexts()))
        .contains("hold the bridge");

    List<String> statuses =
        events.stream()
            .filter(e -> e instanceof BackendEvent.Status)
            .map(e -> ((BackendEvent.Status) e).text())
            .toList();
    assertThat(statuses)
        .containsSubsequence(
            "⏳ Thinking...",
            "⏳ " + ORDERS_PREAMBLE.substring(0, 80) + "…",
            "⏳ Using Read...",
            "⏳ Reading edicta...",
            "⏳ The orders: hold the bridge.");
    assertThat(events)
        .contains(new BackendEvent.ToolCall("mcp__memoria__list_edicta", "{}"))
        .contains(new BackendEvent.Text("The orders: hold the bridge."));
  }

  @Test
  void aConversationTheCliDoesNotHaveIsReportedLost() {
    String unknown = UUID.randomUUID().toString();
    try (BackendSession session = backend(Mode.PER_TURN).open(spec(unknown))) {
      assertThatThrownBy(() -> send(session, "hello"))
          .isInstanceOf(SessionLostException.class)
          .hasMessageContaining(unknown);
    }
    assertThat(api.scriptedRequests()).isEmpty();
  }

  @Test
  void aSessionIdTheCliAlreadyHasIsResumedInsteadOfDrivenTwice() throws Exception {
    api.enqueue(Reply.text("first answer"), Reply.text("second answer"));
    ClaudeCliBackend backend = backend(Mode.PER_TURN);
    try (BackendSession session = backend.open(spec(null))) {
      // Someone else created the conversation under this id (e.g. a turn whose answer was lost).
      ProcessBuilder builder =
          new ProcessBuilder(backend.command(spec(null), session.backendSessionId(), false))
              .directory(work.toFile())
              .redirectErrorStream(true);
      builder.environment().putAll(RealClaudeCli.environment(home, api));
      Process other = builder.start();
      other
          .getOutputStream()
          .write((StreamJson.userMessage("created elsewhere") + "\n").getBytes());
      other.getOutputStream().close();
      other.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      assertThat(other.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(send(session, "my first turn").text()).isEqualTo("second answer");
    }
    assertThat(String.join("\n", api.scriptedRequests().get(1).messageTexts()))
        .contains("created elsewhere")
        .contains("my first turn");
  }

  @Test
  void aPromptTooLongForTheContextWindowLosesTheSession() {
    api.enqueue(Reply.promptTooLong());
    try (BackendSession session = backend(Mode.PER_TURN).open(spec(null))) {
      assertThatThrownBy(() -> send(session, "a very long story"))
          .isInstanceOf(SessionLostException.class)
          .hasMessageContaining("context window");
    }
  }

  @Test
  void anApiErrorFailsTheTurnWithWhatTheCliSaid() {
    api.enqueue(Reply.serverError());
    try (BackendSession session = backend(Mode.PER_TURN).open(spec(null))) {
      assertThatThrownBy(() -> send(session, "hello"))
          .isInstanceOf(BackendException.class)
          .isNotInstanceOf(SessionLostException.class)
          .hasMessageContaining("500");
    }
  }

  /**
   * Only the hanging turn runs under the short time-out: the turns before and after it run in
   * back-ends of their own with the usual 60 s, since each starts a CLI process, which a loaded
   * machine can take longer than 10 s to start (the time-out counts from the turn's start). That
   * the same session starts another process for its next turn is {@link
   * #aProcessThatDiesFailsTheTurnAndTheNextTurnStartsAnother}'s to show.
   */
  @Test
  void aHangingTurnTimesOutKillsTheProcessAndTheNextTurnResumes() throws Exception {
    // By the turn's text, not in order: under load the hanging turn may not reach the API at all.
    api.fallback(
        r -> {
          String text = r.lastUserText();
          if (text.contains("hello")) {
            return Reply.hang();
          }
          return Reply.text(text.contains("are you there?") ? "back again" : "first");
        });
    String id;
    ClaudeCliBackend before = backend(Mode.PERSISTENT);
    try (BackendSession session = before.open(spec(null))) {
      id = session.backendSessionId();
      send(session, "remember the eagle");
      awaitConversationOnDisk(session, "remember the eagle");
    }

    Duration timeout = Duration.ofSeconds(10);
    ClaudeCliBackend backend = backend(Mode.PERSISTENT, timeout);
    try (BackendSession session = backend.open(spec(id))) {
      List<ProcessHandle> seen = new CopyOnWriteArrayList<>();
      AtomicBoolean turnOver = new AtomicBoolean();
      Thread watcher = whileNotOver(turnOver, () -> collectNew(seen, backend.processHandles()));
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> send(session, "hello"))
          .isInstanceOf(BackendException.class)
          .hasMessageContaining("did not answer within 10 s");
      // the time-out, then the kill: not a second time-out
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(25));
      turnOver.set(true);
      watcher.join();
      assertThat(seen).hasSize(1).noneMatch(ProcessHandle::isAlive);
      assertThat(backend.runningProcesses()).isZero();
    }
    api.releaseHangs();

    try (BackendSession session = backend(Mode.PERSISTENT).open(spec(id))) {
      assertThat(send(session, "are you there?").text()).isEqualTo("back again");
    }
    // the new process resumed the conversation, which the killed one left as it was
    FakeMessagesApi.Request last = api.scriptedRequests().getLast();
    assertThat(last.lastUserText()).contains("are you there?");
    assertThat(conversationOf(last)).contains("remember the eagle").contains("first");
  }

  @Test
  void aProcessThatDiesFailsTheTurnAndTheNextTurnStartsAnother() throws Exception {
    api.enqueue(Reply.text("first"), Reply.hang(), Reply.text("alive"));
    ClaudeCliBackend backend = backend(Mode.PERSISTENT);
    try (BackendSession session = backend.open(spec(null))) {
      send(session, "remember the eagle");
      awaitConversationOnDisk(session, "remember the eagle");
      Thread killer =
          whenTheApiIsCalled(
              2, () -> backend.processHandles().forEach(ProcessHandle::destroyForcibly));
      assertThatThrownBy(() -> send(session, "hello"))
          .isInstanceOf(BackendException.class)
          .hasMessageContaining("ended before answering");
      killer.join();
      api.releaseHangs();

      assertThat(send(session, "again").text()).isEqualTo("alive");
    }
    assertThat(conversationOf(api.scriptedRequests().get(2))).contains("remember the eagle");
  }

  @Test
  void closingTheBackEndStopsEveryProcessItStarted() {
    api.enqueue(Reply.text("one"), Reply.text("two"));
    ClaudeCliBackend backend = backend(Mode.PERSISTENT);
    BackendSession a = backend.open(spec(null));
    BackendSession b = backend.open(spec(null));
    send(a, "hello");
    send(b, "hello");
    assertThat(backend.runningProcesses()).isEqualTo(2);
    List<ProcessHandle> running = backend.processHandles();
    assertThat(running).hasSize(2).allMatch(ProcessHandle::isAlive);

    backend.close();

    assertThat(backend.runningProcesses()).isZero();
    assertThat(running).noneMatch(ProcessHandle::isAlive);
  }

  private static String conversationOf(FakeMessagesApi.Request r) {
    return String.join("\n", r.messageTexts());
  }

  /** Runs {@code action} every 20 ms on another thread until {@code over}. */
  private static Thread whileNotOver(AtomicBoolean over, Runnable action) {
    return Thread.ofVirtual()
        .start(
            () -> {
              while (!over.get()) {
                action.run();
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
  }

  /** Adds to {@code seen} the processes of {@code now} it does not have. */
  private static void collectNew(List<ProcessHandle> seen, List<ProcessHandle> now) {
    for (ProcessHandle p : now) {
      if (seen.stream().noneMatch(s -> s.pid() == p.pid())) {
        seen.add(p);
      }
    }
  }

  /** Runs {@code action} on another thread once the fake has received {@code n} requests. */
  private Thread whenTheApiIsCalled(int n, Runnable action) {
    return Thread.ofVirtual()
        .start(
            () -> {
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
              while (api.scriptedRequests().size() < n && System.nanoTime() < deadline) {
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
              action.run();
            });
  }
}
