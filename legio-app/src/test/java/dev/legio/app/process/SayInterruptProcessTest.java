package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FakeMessagesApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (SIGINT) during {@code legio say}: the message stays logged, a turn not ended by then
 * never answers it, and the last line on standard error says so before the exit with status 130.
 */
class SayInterruptProcessTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private FakeMessagesApi model;
  private Path ws;
  private Map<String, String> env;

  @BeforeEach
  void workspaceOnAModel() {
    model = FakeMessagesApi.start();
    ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
    Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + model.baseUrl() + "\"");
    env = Map.of("ANTHROPIC_API_KEY", "test-key-interrupt-0000");
  }

  @AfterEach
  void stopModel() {
    model.close();
  }

  private LegioProcess say(String... words) {
    String[] args = new String[words.length + 3];
    args[0] = "--castra";
    args[1] = ws.toString();
    args[2] = "say";
    System.arraycopy(words, 0, args, 3, words.length);
    return LegioProcess.start(dir, env, args);
  }

  /** The messages {@code sender} wrote, counted in the log's database (0 before it is made). */
  private int messagesFrom(String sender) {
    Path db = ws.resolve("castra/praetorium.db");
    if (!Files.exists(db)) {
      return 0; // not made yet: opening it here would make an empty one
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro");
        PreparedStatement s = c.prepareStatement("SELECT count(*) FROM nuntii WHERE sender = ?")) {
      s.setString(1, sender);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    } catch (java.sql.SQLException e) {
      if (String.valueOf(e.getMessage()).contains("no such table")) {
        return 0; // being migrated
      }
      throw new IllegalStateException(e);
    }
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    return lines[lines.length - 1];
  }

  @Test
  void ctrlCMidTurnSaysTheMessageIsLoggedAndItsReplyWillNotCome() throws Exception {
    model.enqueue(FakeMessagesApi.Reply.hang());
    try (LegioProcess say = say("@vorenus", "report")) {
      say.await(
          "the turn at the model",
          LIMIT,
          () -> model.requests().stream().anyMatch(FakeMessagesApi.Request::isMessages));
      say.signal("INT");

      assertThat(say.awaitExit(LIMIT)).isEqualTo(130);
      assertThat(lastLine(say.stderr()))
          .isEqualTo(
              "legio: interrupted: your message is logged (legio history shows it), but vorenus"
                  + " had not answered it and will not (its turn ends with this process); send it"
                  + " again for a reply");
    }
    // What the line says: the message is in the log, and no answer comes, even once the model
    // answers the request the turn had made.
    model.releaseHangs();
    Thread.sleep(500);
    assertThat(messagesFrom("caesar")).isOne();
    assertThat(messagesFrom("vorenus")).isZero();
  }

  @Test
  void ctrlCWhileOneOfTwoAgentsHasAnsweredSaysTheOthersWillNot() throws Exception {
    // vorenus's turn hangs; pullo's is answered at once.
    model.scriptFor(r -> r.systemText().contains("Vorenus")).enqueue(FakeMessagesApi.Reply.hang());
    try (LegioProcess say = say("@vorenus", "@pullo", "report")) {
      say.await("pullo's reply in the log", LIMIT, () -> messagesFrom("pullo") == 1);
      say.signal("INT");

      assertThat(say.awaitExit(LIMIT)).isEqualTo(130);
      assertThat(lastLine(say.stderr()))
          .isEqualTo(
              "legio: interrupted: your message is logged (legio history shows it, with any reply"
                  + " that came), but the agents that had not answered it will not (their turns"
                  + " end with this process); send it again for their replies");
    }
    model.releaseHangs();
    Thread.sleep(500);
    assertThat(messagesFrom("caesar")).isOne();
    assertThat(messagesFrom("pullo")).isOne();
    assertThat(messagesFrom("vorenus")).isZero();
  }
}
