package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio log prune --archive} end to end, in-process, on a real workspace. */
class PruneArchiveTest {
  @TempDir Path dir;

  record Result(int code, String out, String err) {}

  private final Map<String, String> env = new HashMap<>();

  private Result legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private String workspace() {
    assertThat(legio("init", "legion").code()).isZero();
    return "--castra=" + dir.resolve("legion");
  }

  private Result prune(String castra, Path archive) {
    return legio(castra, "log", "prune", "--older-than", "0s", "--archive", archive.toString());
  }

  @Test
  void aSecondPruneAppendsToTheArchiveOfTheFirst() throws Exception {
    String castra = workspace();
    Path archive = dir.resolve("archive.jsonl");
    legio(castra, "log", "post", "first batch");
    assertThat(prune(castra, archive).code()).isZero();
    legio(castra, "log", "post", "second batch");

    Result second = prune(castra, archive);

    assertThat(second.code()).as(second.err()).isZero();
    List<String> lines = Files.readAllLines(archive);
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("\"text\":\"first batch\"");
    assertThat(lines.get(1)).contains("\"text\":\"second batch\"");
  }

  @Test
  void aNewArchiveIsReadableByItsOwnerOnly() throws Exception {
    String castra = workspace();
    legio(castra, "log", "post", "the vault's password");
    Path archive = dir.resolve("archives/pruned.jsonl");

    assertThat(prune(castra, archive).code()).isZero();

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(archive)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(archive.getParent())))
        .isEqualTo("rwx------");
  }

  @Test
  void theDatabaseAFolderOrAnotherFileIsRefusedAndNothingIsRemoved() throws Exception {
    String castra = workspace();
    legio(castra, "log", "post", "keep me");
    Path db = dir.resolve("legion/castra/praetorium.db");
    Path notes = Files.writeString(dir.resolve("notes.txt"), "my notes\n");
    byte[] dbBefore = Files.readAllBytes(db);

    Result database = prune(castra, db);
    Result folder = prune(castra, dir);
    Result other = prune(castra, notes);
    Result config = prune(castra, dir.resolve("legion/legio.toml"));

    assertThat(database.code()).isEqualTo(2);
    assertThat(database.err()).contains(db.toString(), "praetorium.db").hasLineCount(1);
    assertThat(folder.err()).contains(dir + " is a folder");
    assertThat(other.err()).contains(notes + " holds something else than pruned messages");
    assertThat(config.err()).contains("is Legio's own legio.toml");
    assertThat(Files.readString(notes)).isEqualTo("my notes\n");
    assertThat(Files.readAllBytes(db)).isEqualTo(dbBefore);
    assertThat(legio(castra, "history").out()).contains("keep me");
  }

  @Test
  void aLineCutShortByACrashStaysOnItsOwnLine() throws Exception {
    String castra = workspace();
    Path archive = dir.resolve("archive.jsonl");
    legio(castra, "log", "post", "first");
    prune(castra, archive);
    String whole = Files.readString(archive);
    Files.writeString(archive, whole + "{\"seq\":9,\"te");
    legio(castra, "log", "post", "after the crash");

    assertThat(prune(castra, archive).code()).isZero();

    List<String> lines = Files.readAllLines(archive);
    assertThat(lines).hasSize(3);
    assertThat(lines.get(2)).contains("after the crash").startsWith("{\"seq\"");
  }
}
