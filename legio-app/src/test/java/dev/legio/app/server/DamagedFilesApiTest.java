package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.transcript.FileTranscriptStore;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files damaged on disk (a byte that is not UTF-8, a folder where a file should be) are answered
 * with what is wrong and where, never with a bare 500 "internal error", and never hide the rest.
 */
class DamagedFilesApiTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofMillis(300), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  /** Puts a line holding a Latin-1 byte after the first line of {@code file}. */
  private static void latin1LineInTheMiddle(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      out.writeBytes(lines.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      out.write('\n');
      if (i == 0) {
        out.writeBytes("{\"type\":\"user\",\"note\":\"caf".getBytes());
        out.write(0xE9);
        out.writeBytes("\"}\n".getBytes());
      }
    }
    Files.write(file, out.toByteArray());
  }

  @Test
  void aTranscriptLineThatIsNotUtf8AndAFolderAmongTheTranscriptsHideNoSession() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus first"));
    f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo second"));
    FileTranscriptStore store = (FileTranscriptStore) f.app.transcripts();
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    while (store.list().size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10); // the turn listener writes the transcripts after the answers
    }
    assertThat(store.list()).as("both turns' transcripts written").hasSizeGreaterThanOrEqualTo(2);
    String damaged = store.list().get(0).sessionId();
    latin1LineInTheMiddle(store.file(damaged));
    Files.createDirectories(store.folder().resolve("stray.jsonl"));

    HttpResponse<String> list = f.get("/api/v1/sessions", f.operator);
    assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
    JsonNode body = ServerFixture.json(list);
    assertThat(body.get("sessions").findValuesAsText("owner")).contains("vorenus", "pullo");
    assertThat(body.get("skipped_transcripts")).hasSize(1);
    assertThat(body.get("skipped_transcripts").get(0).asText())
        .endsWith(
            "stray.jsonl is not a regular file (a folder?); move it out of the transcripts"
                + " folder");

    HttpResponse<String> one = f.get("/api/v1/sessions/" + damaged, f.operator);
    assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
    assertThat(ServerFixture.json(one).get("entries")).isNotEmpty();
  }

  @Test
  void aMemoryFileThatIsNotUtf8IsServedWithReplacementCharactersAndAWarningNamingIt()
      throws Exception {
    Path folder = Files.createDirectories(f.app.workspace().castra().resolve("memory/pullo"));
    Files.write(
        folder.resolve("MEMORY.md"),
        "# Memory \u00e9 pullo\n\n- [Roads](roads.md)\n".getBytes("ISO-8859-1"));
    Files.writeString(folder.resolve("roads.md"), "the north road\n");

    HttpResponse<String> r = f.get("/api/v1/agents/pullo/memory", f.operator);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode files = ServerFixture.json(r).get("files");
    assertThat(files.get(0).get("text").asText()).startsWith("# Memory \uFFFD pullo");
    assertThat(files.get(0).get("warning").asText())
        .isEqualTo(
            folder.resolve("MEMORY.md")
                + " is not valid UTF-8 (line 1 holds a byte that is not; saved as Latin-1?):"
                + " save it as UTF-8");
    assertThat(files.get(1).get("text").asText()).isEqualTo("the north road\n");
    assertThat(files.get(1).has("warning")).isFalse();
  }

  @Test
  void aDamagedSessionRowIsA500SayingWhichAndWhatToDoNotAnInternalError() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus first"));
    try (java.sql.Connection db =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + f.app.workspace().castra().resolve("praetorium.db"));
        java.sql.Statement s = db.createStatement()) {
      s.executeUpdate(
          "UPDATE sessions SET previous_backend_session_ids = 'oops' WHERE owner = 'vorenus'");
    }

    HttpResponse<String> r = f.get("/api/v1/status", f.operator);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(500);
    assertThat(ServerFixture.json(r).get("error").asText())
        .startsWith(
            "the session of 'vorenus' has previous_backend_session_ids that are not a JSON array")
        .endsWith("fix or clear that column");
  }

  @Test
  void anActumThatIsNotReadableXmlIsA500NamingTheFileAndWhatToDo() throws Exception {
    Path acta = Files.createDirectories(f.app.workspace().castra().resolve("acta"));
    Files.write(
        acta.resolve("ford.xml"),
        ("<actum name=\"ford\"><entry author=\"vorenus\" timestamp=\"2026-01-01T00:00:00Z\">"
                + "gu\u00e9</entry></actum>")
            .getBytes("ISO-8859-1"));

    HttpResponse<String> r = f.get("/api/v1/memoria/acta/ford", f.operator);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(500);
    assertThat(ServerFixture.json(r).get("error").asText())
        .isEqualTo(
            "acta/ford.xml is not a readable memoria file: line 1, column 79: a byte that is not"
                + " UTF-8 (saved as Latin-1?); save it as UTF-8")
        .doesNotContain(f.app.workspace().castra().toString()); // never the host's path
  }

  @Test
  void aBrokenLegatusPromptIsShownInTheStatusAndAMessageToItIsRefusedNamingTheFile()
      throws Exception {
    Path prompt = f.app.workspace().castra().resolve("legatus/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: [unclosed\n---\nYou are the legatus.\n");

    HttpResponse<String> status = f.get("/api/v1/status", f.operator);
    assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
    JsonNode body = ServerFixture.json(status);
    assertThat(body.get("agents").get(0).get("owner").asText()).isEqualTo("legatus");
    assertThat(body.get("agents").get(0).get("status").asText()).isEqualTo("broken");
    assertThat(body.get("agents").findValuesAsText("owner")).contains("vorenus", "pullo");
    assertThat(body.get("problems").get(0).asText())
        .startsWith(prompt + ": the front matter is not valid YAML at line 2");

    HttpResponse<String> message =
        f.post("/api/v1/messages", f.operator, Map.of("text", "hello legatus"));
    assertThat(message.statusCode()).as(message.body()).isEqualTo(409);
    assertThat(ServerFixture.json(message).get("error").asText())
        .startsWith(prompt + ": the front matter is not valid YAML at line 2");
    HttpResponse<String> centurio =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus still here?"));
    assertThat(centurio.statusCode()).as(centurio.body()).isEqualTo(200);
  }

  @Test
  void aMessageToACenturioWhosePromptIsBrokenIsRefusedNamingTheFile() throws Exception {
    Path prompt = f.app.workspace().castra().resolve("centuriones/vorenus/prompt.md");
    Files.writeString(prompt, "---\ndescription: [unclosed\n---\nYou are vorenus.\n");

    HttpResponse<String> message =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus hello"));
    assertThat(message.statusCode()).as(message.body()).isEqualTo(409);
    assertThat(ServerFixture.json(message).get("error").asText()).startsWith(prompt + ": ");
  }
}
