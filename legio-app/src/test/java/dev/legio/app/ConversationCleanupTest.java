package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.ConversationTurn;
import dev.legio.session.SessionRecord;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daily cleanup deletes old stored conversations along with expired session records. */
class ConversationCleanupTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(START);

  private static Instant day(int n) {
    return START.plus(Duration.ofDays(n));
  }

  private static Conversation conversation(Instant createdAt) {
    return new Conversation(
        UUID.randomUUID(),
        "pullo",
        "ollama",
        "llama3.2",
        "prompt",
        null,
        null,
        createdAt,
        List.of());
  }

  private static ConversationTurn turn(Instant at) {
    return new ConversationTurn(
        0,
        List.of(new ChatMessage.User("Scout"), new ChatMessage.Assistant("Clear.", List.of())),
        new Usage(10, 2, 0, 0, false),
        12,
        at);
  }

  private static SessionRecord record(String owner, Instant lastActive, Instant expires) {
    return new SessionRecord(
        owner,
        UUID.randomUUID(),
        "ollama",
        null,
        "0".repeat(64),
        null,
        0,
        0,
        0,
        0,
        START,
        lastActive,
        expires,
        SessionRecord.State.CLOSED,
        null,
        0);
  }

  @Test
  void conversationsInactiveLongerThanTheLongestTtlAreDeletedDaily() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    // The longest ttl_days (45, claude-cli) decides, not the default (30).
    Path toml = workspace.configFile();
    Files.writeString(
        toml, Files.readString(toml).replace("claude-cli = 30\n", "claude-cli = 45\n"));

    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      ConversationStore conversations = app.conversations();
      Conversation untouched = conversation(day(0));
      Conversation continued = conversation(day(0));
      Conversation recent = conversation(day(60));
      conversations.create(untouched);
      conversations.create(continued);
      conversations.appendTurn(continued.id(), turn(day(30)));
      conversations.create(recent);
      app.sessions().save(record("vorenus", day(1), day(8)));
      app.sessions().save(record("pullo", day(60), day(90)));

      // Day 70: the cutoff is day 25 (70 - 45); with the default's 30 days it would be day 40.
      clock.set(day(70));
      app.maintenance(clock).dailyCleanup();

      assertThat(conversations.find(untouched.id())).isEmpty();
      assertThat(conversations.find(continued.id())).isPresent();
      assertThat(conversations.find(recent.id())).isPresent();
      assertThat(app.sessions().find("vorenus")).isEmpty();
      assertThat(app.sessions().find("pullo")).isPresent();

      // A day past the continued conversation's last turn plus 45 days, it goes too.
      clock.set(day(76));
      app.maintenance(clock).dailyCleanup();
      assertThat(conversations.find(continued.id())).isEmpty();
      assertThat(conversations.find(recent.id())).isPresent();
    }
  }
}
