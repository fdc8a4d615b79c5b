package dev.legio.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.MutableClock;
import dev.legio.testing.RealClaudeCli;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task session on the real Claude Code CLI (talking to the loopback Messages API): idle time and
 * a restart stop its CLI process, and the next task resumes the conversation with {@code --resume}.
 */
class TaskSessionsClaudeCliTest {
  @TempDir Path dir;
  @TempDir Path home;
  private final MutableClock clock = MutableClock.at("2026-11-20T10:00:00Z");
  private FakeMessagesApi api;
  private LegioStore store;
  private Workspace workspace;

  @BeforeEach
  void start() throws Exception {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    workspace = new Workspace(dir.resolve("ws"));
    WorkspaceInitializer.initialise(workspace);
    store =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(dir.resolve("praetorium.db"), 4096, false, 4, clock));
  }

  @AfterEach
  void stop() {
    store.close();
    api.close();
  }

  private TaskSessions tasks(ClaudeCliBackend backend) {
    return TestTaskSessions.on(
        store, workspace.castra(), backend, SessionSettings.defaults(), clock);
  }

  private ClaudeCliBackend cli() {
    return new ClaudeCliBackend(
        RealClaudeCli.options(home, workspace.root(), api, ClaudeCliBackend.Mode.PERSISTENT));
  }

  /** The CLI writes a conversation's file a moment after answering; wait for it. */
  private void awaitOnDisk(String sessionFileName, String text) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try (Stream<Path> files = Files.walk(home)) {
        if (files
            .filter(f -> f.getFileName().toString().equals(sessionFileName))
            .anyMatch(f -> read(f).contains(text))) {
          return;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the CLI never wrote " + sessionFileName);
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  @Test
  void anIdleTaskSessionAndARestartResumeTheCliConversation() throws Exception {
    api.enqueue(
        Reply.text("Noted: the eagle.").withUsage(120, 9, 0, 0),
        Reply.text("The eagle.").withUsage(180, 7, 0, 0),
        Reply.text("Still the eagle.").withUsage(200, 7, 0, 0));
    ClaudeCliBackend backend = cli();
    TaskSessions tasks = tasks(backend);
    TaskResult first = tasks.run("campaign:1", "vorenus", "Remember the eagle.", "run-1");
    String conversation =
        store.tasks().find("campaign:1", "vorenus").orElseThrow().backendSessionId();
    awaitOnDisk(conversation + ".jsonl", "Remember the eagle.");

    // Idle past session_idle_timeout_minutes: the CLI process stops, the conversation stays.
    clock.advance(Duration.ofHours(5));
    assertThat(tasks.closeIdle()).isEqualTo(1);
    TaskResult second = tasks.run("campaign:1", "vorenus", "What did I ask you?", "run-2");
    assertThat(second.resumed()).isTrue();
    assertThat(second.sessionId()).isEqualTo(first.sessionId());
    assertThat(String.join("\n", last(api).messageTexts())).contains("Remember the eagle.");
    awaitOnDisk(conversation + ".jsonl", "What did I ask you?");

    // A restart: a new service and CLI back-end on the same store, days later.
    tasks.close();
    backend.close();
    clock.advance(Duration.ofDays(20));
    ClaudeCliBackend again = cli();
    try {
      TaskResult third = tasks(again).run("campaign:1", "vorenus", "And now?", "run-3");
      assertThat(third.resumed()).isTrue();
      assertThat(String.join("\n", last(api).messageTexts()))
          .contains("Remember the eagle.", "What did I ask you?");
    } finally {
      again.close();
    }
  }

  private static FakeMessagesApi.Request last(FakeMessagesApi api) {
    List<FakeMessagesApi.Request> all = api.scriptedRequests();
    return all.get(all.size() - 1);
  }
}
