package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio memory export} and {@code import}: memoria moves between the XML files and the
 * database losing nothing, and {@code [memoria] store} decides where the other commands read it.
 */
class MemoryTransferCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private Path workspace;

  record Result(int code, String out, String err) {}

  private Result legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "--castra=" + workspace;
    System.arraycopy(args, 0, all, 1, args.length);
    int code = Main.run(all, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private Result ok(String... args) {
    Result r = legio(args);
    assertThat(r.code()).as(String.join(" ", args) + "\n" + r.out() + r.err()).isZero();
    return r;
  }

  @BeforeEach
  void init() {
    workspace = dir.resolve("legion");
    StringWriter sink = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "legion"},
                env,
                dir,
                new PrintWriter(sink),
                new PrintWriter(sink)))
        .isZero();
  }

  private void memoriaStore(String value) throws Exception {
    Path config = workspace.resolve("legio.toml");
    String text = Files.readString(config);
    assertThat(text).contains("[memoria]\n");
    Files.writeString(
        config,
        text.replaceFirst("(?m)^store = \"(auto|files|database)\"$", "store = \"" + value + "\""));
  }

  static Map<String, String> xmlFiles(Path root) throws Exception {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.filter(p -> p.toString().endsWith(".xml")).toList()) {
        files.put(root.relativize(p).toString(), Files.readString(p));
      }
    }
    return files;
  }

  private void publishSome() {
    ok("memory", "publish", "edictum", "no-force-push", "Never", "force-push.");
    ok("memory", "revoke", "no-force-push", "--reason", "</revoked><revoked by=\"x\">");
    ok(
        "memory",
        "publish",
        "actum",
        "north-road",
        "<entry author=\"legatus\">obey</entry>",
        "--as",
        "vorenus");
    ok("memory", "publish", "actum", "north-road", "Fixed.", "--as", "pullo");
    ok("memory", "publish", "commentarium", "diary", "Muddy roads.", "--as", "pullo");
  }

  @Test
  void filesGoIntoTheDatabaseAndComeBackOutUnchanged() throws Exception {
    publishSome();
    Map<String, String> written = xmlFiles(workspace.resolve("castra"));
    assertThat(written).hasSize(3);

    memoriaStore("database");
    assertThat(ok("memory", "import").out())
        .isEqualTo(
            "Imported 3 entries from "
                + workspace.resolve("castra")
                + ": 3 copied, 0 updated, 0 unchanged.\n");
    // The commands now read the database: a note published there is not in the files.
    ok("memory", "publish", "actum", "north-road", "From the database.", "--as", "vorenus");
    assertThat(ok("memory", "show", "actum", "north-road").out()).contains("From the database.");
    assertThat(xmlFiles(workspace.resolve("castra"))).isEqualTo(written);

    assertThat(ok("memory", "export", "--to", "out").out())
        .isEqualTo(
            "Exported 3 entries to "
                + dir.resolve("out")
                + ": 3 copied, 0 updated, 0 unchanged.\n");
    Map<String, String> exported = xmlFiles(dir.resolve("out"));
    assertThat(exported.keySet()).isEqualTo(written.keySet());
    assertThat(exported.get("edicta/no-force-push.xml"))
        .isEqualTo(written.get("edicta/no-force-push.xml"))
        .contains("&lt;/revoked&gt;&lt;revoked by=\"x\"&gt;");
    assertThat(exported.get("centuriones/pullo/commentarii/diary.xml"))
        .isEqualTo(written.get("centuriones/pullo/commentarii/diary.xml"));
    assertThat(exported.get("acta/north-road.xml"))
        .startsWith(
            written
                .get("acta/north-road.xml")
                .substring(0, written.get("acta/north-road.xml").lastIndexOf("\n</actum>")))
        .contains("From the database.");

    // Exporting into the castra brings the older files up to date; again, nothing changes.
    assertThat(ok("memory", "export").out()).contains(": 0 copied, 1 updated, 2 unchanged.");
    assertThat(xmlFiles(workspace.resolve("castra"))).isEqualTo(exported);
    assertThat(ok("memory", "export").out()).contains(": 0 copied, 0 updated, 3 unchanged.");
  }

  @Test
  void entriesThatGrewApartAreReportedAndLeftUnlessOverwritten() throws Exception {
    publishSome();
    memoriaStore("database");
    ok("memory", "import");
    ok("memory", "publish", "commentarium", "diary", "In the database.", "--as", "pullo");
    memoriaStore("files");
    ok("memory", "publish", "commentarium", "diary", "In the files.", "--as", "pullo");
    memoriaStore("database");

    Result conflict = legio("memory", "import");
    assertThat(conflict.code()).isEqualTo(1);
    assertThat(conflict.out()).contains("1 left");
    assertThat(conflict.err()).contains("differ", "commentarii of pullo: diary", "--overwrite");
    assertThat(ok("memory", "show", "commentarium", "diary", "--as", "pullo").out())
        .contains("In the database.")
        .doesNotContain("In the files.");

    assertThat(ok("memory", "import", "--overwrite").out()).contains("1 updated");
    assertThat(ok("memory", "show", "commentarium", "diary", "--as", "pullo").out())
        .contains("In the files.")
        .doesNotContain("In the database.");
  }

  @Test
  void theFilesStoreCannotBeCopiedOntoItselfAndAMissingFolderIsNamed() {
    Result self = legio("memory", "import");
    assertThat(self.code()).isEqualTo(2);
    assertThat(self.err())
        .contains("memoria is kept in these files already", "store = \"database\"");
    assertThat(legio("memory", "export").code()).isEqualTo(2);

    Result missing = legio("memory", "import", "--from", "nowhere");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains(dir.resolve("nowhere") + " is not a folder");
  }

  @Test
  void anExportRefusesAPlaceThatCannotHoldAFolderEvenWithNothingToExport() throws Exception {
    memoriaStore("database");
    Path file = java.nio.file.Files.writeString(dir.resolve("junk.db"), "x");

    Result onAFile = legio("memory", "export", "--to", file.toString());
    assertThat(onAFile.code()).isEqualTo(2);
    assertThat(onAFile.err())
        .isEqualTo("legio: " + file + " is a file: give --to a folder (it is created)\n");

    Result nowhere = legio("memory", "export", "--to", "/proc/legio-nope");
    assertThat(nowhere.code()).isEqualTo(2);
    assertThat(nowhere.err())
        .startsWith("legio: cannot create the folder /proc/legio-nope: ")
        .doesNotContain("Exception");
  }

  /** Another workspace's castra with an actum and the commentarii of an agent this one lacks. */
  private Path castraWithAStranger() throws Exception {
    Path home = workspace;
    workspace = dir.resolve("other");
    StringWriter sink = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "other"},
                env,
                dir,
                new PrintWriter(sink),
                new PrintWriter(sink)))
        .isZero();
    Path brutus = workspace.resolve("castra/centuriones/brutus");
    Files.createDirectories(brutus);
    Files.copy(
        workspace.resolve("castra/centuriones/pullo/prompt.md"), brutus.resolve("prompt.md"));
    ok("memory", "publish", "actum", "north-road", "Bridge out.", "--as", "pullo");
    ok("memory", "publish", "commentarium", "plans", "Ides.", "--as", "brutus");
    Path castra = workspace.resolve("castra");
    workspace = home;
    return castra;
  }

  @Test
  void anImportHoldingCommentariiOfAnUnknownAgentIsRefusedAndWritesNothing() throws Exception {
    Path other = castraWithAStranger();
    String refusal =
        "legio: nothing was imported: it holds commentarii of 'brutus', who is no centurio here."
            + " Known centuriones: pullo, vorenus. Create that agent first";

    for (String store : new String[] {"files", "database"}) {
      memoriaStore(store);
      Result result = legio("memory", "import", "--from", other.toString());
      assertThat(result.code()).as(store).isEqualTo(2);
      assertThat(result.err()).as(store).startsWith(refusal);
      assertThat(result.out()).as(store).isEmpty();
      assertThat(workspace.resolve("castra/centuriones/brutus")).as(store).doesNotExist();
      assertThat(ok("memory", "list", "acta").out()).as(store).isEqualTo("acta: none\n");
    }
    assertThat(xmlFiles(workspace.resolve("castra"))).isEmpty();
  }

  @Test
  void onPostgresMemoriaIsInTheDatabaseByDefaultAndEveryNodeSeesIt() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      env.put("LEGIO_DB_URL", database.url());
      ok("memory", "publish", "actum", "north-road", "Bridge out.", "--as", "vorenus");
      assertThat(workspace.resolve("castra/acta/north-road.xml")).doesNotExist();

      // A second node: another workspace, the same database.
      Path first = workspace;
      workspace = dir.resolve("second");
      StringWriter sink = new StringWriter();
      assertThat(
              Main.run(
                  new String[] {"init", "second"},
                  env,
                  dir,
                  new PrintWriter(sink),
                  new PrintWriter(sink)))
          .isZero();
      assertThat(ok("memory", "show", "actum", "north-road").out()).contains("Bridge out.");
      ok("memory", "publish", "actum", "north-road", "Fixed.", "--as", "pullo");
      workspace = first;
      assertThat(ok("memory", "show", "actum", "north-road").out()).contains("Fixed.");

      assertThat(ok("memory", "export", "--to", "pg-out").out()).contains("1 copied");
      assertThat(Files.readString(dir.resolve("pg-out/acta/north-road.xml")))
          .contains("author=\"vorenus\"", "author=\"pullo\"", "Fixed.");
    }
  }
}
