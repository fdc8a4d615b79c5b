package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A message to an agent whose {@code prompt.md} is broken is refused before anything is logged:
 * exit 2, naming the file and the line, and no request left unanswered in the log.
 */
class BrokenPromptProcessTest {
  @TempDir Path dir;

  @Test
  void aBrokenPromptIsRefusedBeforeTheRequestIsLogged() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Path prompt = ws.resolve("castra/centuriones/vorenus/prompt.md");
    Files.writeString(
        prompt, "---\ndescription: analyst\nhistory_window: [50\n---\nYou are Vorenus.\n");

    LegioProcess say =
        LegioProcess.run(
            dir,
            Map.of(),
            Duration.ofSeconds(60),
            "--castra",
            ws.toString(),
            "say",
            "@vorenus",
            "hi");

    assertThat(say.exitCode()).as(say.stderr()).isEqualTo(2);
    assertThat(say.stderr()).contains(prompt.toString()).contains("line ");
    assertThat(say.stderr()).doesNotContain("\tat ");
    assertThat(messagesLogged(ws)).isZero();

    // The other agents are not affected.
    LegioProcess other =
        LegioProcess.run(
            dir,
            Map.of(),
            Duration.ofSeconds(60),
            "--castra",
            ws.toString(),
            "say",
            "@pullo",
            "hi");
    assertThat(other.exitCode()).as(other.stderr()).isZero();
    assertThat(messagesLogged(ws)).isEqualTo(2);
  }

  private static int messagesLogged(Path ws) throws Exception {
    Path db = ws.resolve("castra/praetorium.db");
    if (!Files.exists(db)) {
      return 0;
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM nuntii")) {
      r.next();
      return r.getInt(1);
    }
  }
}
