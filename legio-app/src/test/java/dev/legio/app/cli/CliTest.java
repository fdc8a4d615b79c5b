package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.PraetoriumXml;
import dev.legio.testing.LegioPraetoriumFile;
import dev.legio.testing.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The legio command end to end, in-process, on a real workspace. */
class CliTest {
  @TempDir Path dir;

  record Result(int code, String out, String err) {}

  private final Map<String, String> env = new HashMap<>();

  private Result legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private Path workspace() {
    Path ws = dir.resolve("legion");
    assertThat(legio("init", "legion").code()).isZero();
    return ws;
  }

  @Test
  void initThenPostThenHistoryAsCaesarAndAsAnAgent() {
    Path ws = workspace();
    String castra = "--castra=" + ws;

    assertThat(legio(castra, "log", "post", "--to", "vorenus", "Scout the north road").code())
        .isZero();
    assertThat(legio(castra, "log", "post", "--to", "pullo", "Secret for pullo").code()).isZero();
    assertThat(legio(castra, "log", "post", "--from", "legatus", "--to", "all", "Hear ye").code())
        .isZero();

    Result all = legio(castra, "history");
    assertThat(all.out()).contains("Scout the north road", "Secret for pullo", "Hear ye");

    Result vorenus = legio("history", castra, "--viewer", "vorenus", "--xml");
    assertThat(vorenus.code()).isZero();
    PraetoriumXml.Parsed parsed = PraetoriumXml.parse(vorenus.out().strip());
    assertThat(parsed.viewer()).isEqualTo("vorenus");
    assertThat(parsed.entries())
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("Scout the north road", "Hear ye");
    assertThat(ws.resolve("castra/praetorium.db")).isRegularFile();
    assertThat(ws.resolve("castra/logs/legio.log")).isRegularFile();
  }

  @Test
  void commandsThatOnlyReadLeaveThePraetoriumAsItIsWithoutTakingTheMigrationLock()
      throws Exception {
    Path ws = workspace();
    String castra = "--castra=" + ws;
    assertThat(legio(castra, "log", "post", "--to", "vorenus", "Scout the north road").code())
        .isZero();
    Path db = ws.resolve("castra/praetorium.db");
    Path lock = ws.resolve("castra/praetorium.db.migrate.lock");
    Files.delete(lock);
    byte[] before = Files.readAllBytes(db);

    Result history = legio(castra, "history");
    assertThat(history.code()).as(history.err()).isZero();
    assertThat(history.out()).contains("Scout the north road");
    Result usage = legio(castra, "usage");
    assertThat(usage.code()).as(usage.err()).isZero();
    Result status = legio(castra, "status");
    assertThat(status.code()).as(status.err()).isZero();
    assertThat(status.out()).startsWith("AGENT");

    // What a read-only copy or a backup needs: nothing taken, nothing written.
    assertThat(lock).doesNotExist();
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
    // A command that writes opens it as before.
    assertThat(legio(castra, "log", "post", "--to", "pullo", "Hold the bridge").code()).isZero();
    assertThat(lock).exists();
  }

  @Test
  void aBrokenLegatusPromptIsShownByStatusWithEveryOtherAgent() throws Exception {
    Path ws = workspace();
    String castra = "--castra=" + ws;
    Path prompt = ws.resolve("castra/legatus/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: [unclosed\n---\nYou are the legatus.\n");

    Result status = legio(castra, "status");

    assertThat(status.code()).as(status.err()).isZero();
    List<String> lines = status.out().lines().toList();
    assertThat(lines.get(1)).startsWith("legatus").contains(" broken ");
    assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("vorenus"));
    assertThat(lines)
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith(
                        "problem: " + prompt + ": the front matter is not valid YAML at line 2"));
  }

  @Test
  void legioHomeSelectsTheWorkspaceWhenNoCastraIsGiven() {
    Path ws = workspace();
    env.put("LEGIO_HOME", ws.toString());
    assertThat(legio("log", "post", "hello legatus").code()).isZero();
    assertThat(legio("history", "--viewer", "legatus").out()).contains("hello legatus");
  }

  @Test
  void badInputExitsWithCodeTwoAndAMessageSayingWhatToDo() {
    Path ws = workspace();
    String castra = "--castra=" + ws;

    Result empty = legio(castra, "log", "post", " ");
    assertThat(empty.code()).isEqualTo(2);
    assertThat(empty.err()).contains("Nothing to post: the text is empty.");

    Result badName = legio(castra, "log", "post", "--from", "Bad Name", "hi");
    assertThat(badName.code()).isEqualTo(2);
    assertThat(badName.err()).contains("sender 'Bad Name' is not a valid name");

    Result noWorkspace = legio("--castra=" + dir.resolve("nowhere"), "history");
    assertThat(noWorkspace.code()).isEqualTo(2);
    assertThat(noWorkspace.err()).contains("no Legio workspace at").contains("legio init");

    Result badAge = legio(castra, "log", "prune", "--older-than", "soon");
    assertThat(badAge.code()).isEqualTo(2);
    assertThat(badAge.err()).contains("'soon' is not an age");

    assertThat(legio(castra, "history").out()).contains("(no messages visible to caesar)");
  }

  @Test
  void postRefusesAnUnknownNameInItsAudienceAsSayDoesAndLogsNothing() {
    Path ws = workspace();
    String castra = "--castra=" + ws;

    Result unknown = legio(castra, "log", "post", "--to=vorenus,nosuch", "hi");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo(
            "legio: Unknown name nosuch. Known names: caesar, legatus, pullo, vorenus,"
                + " all (everyone).\n");
    assertThat(legio(castra, "history").out()).contains("(no messages visible to caesar)");

    // The names say knows, everyone, and a channel are still taken.
    for (String to : List.of("caesar", "legatus,pullo", "all", "telegram:123")) {
      assertThat(legio(castra, "log", "post", "--to=" + to, "to " + to).code()).as(to).isZero();
    }
    assertThat(legio(castra, "history").out())
        .contains("to caesar", "to legatus,pullo", "to all", "to telegram:123");

    // The sender and the viewer of history are held to the same names.
    Result from = legio(castra, "log", "post", "--from=nosuch", "hi");
    assertThat(from.code()).isEqualTo(2);
    assertThat(from.err()).startsWith("legio: Unknown sender nosuch. Known names: caesar,");
    Result viewer = legio(castra, "history", "--viewer=vorenu");
    assertThat(viewer.code()).isEqualTo(2);
    assertThat(viewer.err())
        .isEqualTo("legio: Unknown viewer vorenu. Known names: caesar, legatus, pullo, vorenus.\n");
    assertThat(legio(castra, "history", "--viewer=telegram:123").out()).contains("to telegram:123");
  }

  @Test
  void aBrokenConfigNamesTheFileAndKey() throws Exception {
    Path ws = workspace();
    Files.writeString(ws.resolve("legio.toml"), "[praetorium]\nmax_message_bytes = -1\n");
    Result result = legio("--castra=" + ws, "history");
    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains(ws.resolve("legio.toml").toString())
        .contains("[praetorium] max_message_bytes: expected an integer from 1 to");
  }

  @Test
  void aLegioTomlThatIsAFolderIsNamedAsAFolderNotAsMissing() throws Exception {
    Path ws = workspace();
    Files.delete(ws.resolve("legio.toml"));
    Files.createDirectory(ws.resolve("legio.toml"));
    Result result = legio("--castra=" + ws, "history");
    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains(ws.resolve("legio.toml") + " is a folder, not a file")
        .doesNotContain("missing");
  }

  @Test
  void pruneArchivesThenRemovesOldMessages() throws Exception {
    Path ws = workspace();
    String castra = "--castra=" + ws;
    legio(castra, "log", "post", "old news");
    Path archive = dir.resolve("archive/pruned.jsonl");

    Result result =
        legio(castra, "log", "prune", "--older-than", "0s", "--archive", archive.toString());

    assertThat(result.code()).isZero();
    assertThat(result.out()).contains("removed 1 messages");
    List<String> lines = Files.readAllLines(archive);
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .contains("\"text\":\"old news\"")
        .contains("\"audience\":[\"legatus\"]");
    assertThat(legio(castra, "history").out()).contains("(no messages");
  }

  @Test
  void importCopiesALegioDatabaseIdempotently() throws Exception {
    Path legacy = dir.resolve("old/praetorium.db");
    Files.createDirectories(legacy.getParent());
    LegioPraetoriumFile.create(
        legacy,
        List.of(
            new String[] {
              "11111111-1111-4111-8111-111111111111",
              "caesar",
              "status?",
              "[\"legatus\"]",
              "2026-02-15T12:00:00+00:00",
              null
            },
            new String[] {
              "22222222-2222-4222-8222-222222222222",
              "legatus",
              "quiet",
              "[\"caesar\"]",
              "2026-02-15T12:00:01.5+00:00",
              "11111111-1111-4111-8111-111111111111"
            }));
    Path ws = workspace();
    String castra = "--castra=" + ws;

    Result first = legio(castra, "log", "import", legacy.toString());
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("imported 2 messages, 0 already present");
    Result again = legio(castra, "log", "import", legacy.toString());
    assertThat(again.out()).contains("imported 0 messages, 2 already present");

    Result thread = legio(castra, "log", "thread", "22222222-2222-4222-8222-222222222222");
    assertThat(thread.out()).containsSubsequence("status?", "quiet");

    Result self = legio(castra, "log", "import", ws.resolve("castra/praetorium.db").toString());
    assertThat(self.code()).isEqualTo(2);
    assertThat(self.err()).contains("is this workspace's own log");

    // Input to fix, said as such (exit 2), in words.
    Path junk = Files.writeString(dir.resolve("junk.db"), "this is no database, it is text\n");
    Result notDb = legio(castra, "log", "import", junk.toString());
    assertThat(notDb.code()).isEqualTo(2);
    assertThat(notDb.err())
        .isEqualTo(
            "legio: "
                + junk
                + " is not a Legio praetorium (it is not a SQLite database): name the"
                + " praetorium.db of a Legio workspace's castra\n");
    for (String batch : List.of("--batch=0", "--batch=-5")) {
      Result bad = legio(castra, "log", "import", batch, legacy.toString());
      assertThat(bad.code()).as(batch).isEqualTo(2);
      assertThat(bad.err()).as(batch).startsWith("legio: --batch must be at least 1");
    }
  }

  @Test
  void importGoesIntoPostgresWhenLegioDbUrlPointsThere() throws Exception {
    Path legacy = dir.resolve("old.db");
    LegioPraetoriumFile.create(legacy, LegioPraetoriumFile.caesarToVorenus(2500));
    Path ws = workspace();
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      env.put("LEGIO_DB_URL", database.url());
      Result result = legio("--castra=" + ws, "log", "import", legacy.toString());
      assertThat(result.code()).as(result.err()).isZero();
      assertThat(result.out()).contains("imported 2500 messages");
      Result history = legio("--castra=" + ws, "history", "--viewer", "vorenus", "--limit", "3");
      assertThat(history.out()).contains("m2497", "m2498", "m2499").doesNotContain("m2496");
      assertThat(ws.resolve("castra/praetorium.db")).doesNotExist();
    }
  }
}
