package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.server.ApiTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio token create|list|revoke}. */
class TokenCommandTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  Run legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(args, Map.of(), dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void aTokenIsPrintedOnceListedWithoutItsSecretAndRevoked() throws Exception {
    assertThat(legio("init", "legion").code()).isZero();
    String ws = dir.resolve("legion").toString();
    Run created =
        legio(
            "--castra",
            ws,
            "token",
            "create",
            "bot",
            "--role",
            "gateway",
            "--sources",
            "telegram,slack");
    assertThat(created.code()).as(created.err()).isZero();
    String secret = created.out().strip();
    assertThat(secret).startsWith("legio_").doesNotContain("\n");
    assertThat(created.err()).contains("shown only now");

    Run list = legio("--castra", ws, "token", "list");
    assertThat(list.out()).contains("bot", "gateway", "telegram,slack").doesNotContain(secret);
    Path file = new ApiTokens(dir.resolve("legion/castra")).file();
    assertThat(Files.readString(file)).doesNotContain(secret);

    assertThat(legio("--castra", ws, "token", "create", "bot", "--role", "operator").code())
        .isEqualTo(2);
    assertThat(legio("--castra", ws, "token", "create", "gw", "--role", "gateway").err())
        .contains("needs --sources");
    // A scraper's token: GET /metrics only, no sources.
    assertThat(legio("--castra", ws, "token", "create", "prometheus", "--role", "metrics").code())
        .isZero();
    assertThat(legio("--castra", ws, "token", "list").out()).contains("prometheus", "metrics");
    assertThat(legio("--castra", ws, "token", "create", "x", "--role", "scraper").err())
        .contains("choose operator, gateway, task or metrics");
    assertThat(legio("--castra", ws, "token", "revoke", "bot").out()).contains("revoked");
    Run again = legio("--castra", ws, "token", "revoke", "bot");
    assertThat(again.code()).isEqualTo(2);
    assertThat(again.err()).contains("no token named 'bot'");
  }

  @Test
  void aTaskTokenIsScopedToKeyPrefixesAndTheListSaysWhatEachTaskTokenReaches() throws Exception {
    assertThat(legio("init", "legion").code()).isZero();
    String ws = dir.resolve("legion").toString();
    Run scoped =
        legio(
            "--castra",
            ws,
            "token",
            "create",
            "campaigns",
            "--role",
            "task",
            "--keys",
            "campaign:,ticket:");
    assertThat(scoped.code()).as(scoped.err()).isZero();
    assertThat(scoped.err()).contains("(task, key prefixes campaign:,ticket:)");
    Run open = legio("--castra", ws, "token", "create", "everything", "--role", "task");
    assertThat(open.err()).contains("(task, every session key)");
    assertThat(legio("--castra", ws, "token", "create", "console", "--role", "operator").code())
        .isZero();

    List<String> lines = legio("--castra", ws, "token", "list").out().lines().toList();
    assertThat(lines.get(0)).contains("SOURCES", "KEYS", "CREATED");
    assertThat(line(lines, "campaigns")).contains("task", "campaign:,ticket:");
    assertThat(line(lines, "everything")).contains("task", "(every key)");
    assertThat(line(lines, "console")).doesNotContain("every key", "campaign");

    // --keys only on task tokens, --sources only on gateways; --keys never means "every key".
    assertThat(
            legio(
                    "--castra",
                    ws,
                    "token",
                    "create",
                    "gw",
                    "--role",
                    "gateway",
                    "--sources",
                    "telegram",
                    "--keys",
                    "campaign:")
                .err())
        .contains("--keys is for task tokens only", "--sources");
    assertThat(
            legio("--castra", ws, "token", "create", "op", "--role", "operator", "--keys", "a:")
                .err())
        .contains("--keys is for task tokens only");
    Run sources =
        legio("--castra", ws, "token", "create", "t", "--role", "task", "--sources", "telegram");
    assertThat(sources.code()).isEqualTo(2);
    assertThat(sources.err()).contains("--sources is for gateway tokens only", "--keys");
    assertThat(legio("--castra", ws, "token", "create", "t", "--role", "task", "--keys", "").err())
        .contains("key prefix");
    assertThat(
            legio(
                    "--castra",
                    ws,
                    "token",
                    "create",
                    "t",
                    "--role",
                    "task",
                    "--keys",
                    "campaign:, ticket:")
                .err())
        .contains("key prefix ' ticket:' begins or ends with a space");
    assertThat(legio("--castra", ws, "token", "list").out()).doesNotContain("gw ", "op ", "t  ");
  }

  private static String line(List<String> lines, String name) {
    return lines.stream().filter(l -> l.startsWith(name + " ")).findFirst().orElseThrow();
  }

  @Test
  void aDamagedTokenFileIsOneLineSayingWhatToDoAndServeRefusesToStart() throws Exception {
    assertThat(legio("init", "legion").code()).isZero();
    String ws = dir.resolve("legion").toString();
    Path file = new ApiTokens(dir.resolve("legion/castra")).file();
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{not json");
    for (String[] args :
        new String[][] {
          {"--castra", ws, "token", "list"},
          {"--castra", ws, "token", "create", "bot", "--role", "operator"},
          {"--castra", ws, "serve"}
        }) {
      Run run = legio(args);
      assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(run.err())
          .as(String.join(" ", args))
          .contains("tokens.json is not a valid token file", "move it aside")
          .doesNotContain("Exception", "cannot lock", "\n\tat ");
      assertThat(run.err().strip().lines().count()).isEqualTo(1);
    }
    assertThat(Files.readString(file)).isEqualTo("{not json");
  }

  @Test
  void aTokenFileHoldingAnObjectWhereTheListIsKeptIsSaidInWordsWithoutJavaNames() throws Exception {
    assertThat(legio("init", "legion").code()).isZero();
    String ws = dir.resolve("legion").toString();
    Path file = new ApiTokens(dir.resolve("legion/castra")).file();
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"tokens\": []}\n");

    Run run = legio("--castra", ws, "token", "list");

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err().strip())
        .isEqualTo(
            "legio: "
                + file
                + " is not a valid token file (line 1, column 1: expected a list, found an"
                + " object): restore it from a backup, or move it aside and create the tokens"
                + " again with `legio token create NAME --role ROLE`");
  }
}
