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
  void aDamagedSessionRowHidesNoSessionAndItsAgentsNextTurnReplacesIt() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus first"));
    f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo second"));
    dev.legio.testing.HandEdits.sqlite(
        f.app.workspace().castra().resolve("praetorium.db"),
        "UPDATE sessions SET previous_backend_session_ids = 'oops' WHERE owner = 'vorenus'");

    HttpResponse<String> status = f.get("/api/v1/status", f.operator);
    assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
    JsonNode body = ServerFixture.json(status);
    assertThat(body.get("agents").findValuesAsText("owner")).contains("vorenus", "pullo");
    for (JsonNode agent : body.get("agents")) {
      String expected =
          switch (agent.get("owner").asText()) {
            case "vorenus" -> "damaged";
            case "pullo" -> "active";
            default -> "none";
          };
      assertThat(agent.get("session").asText()).as(agent.toString()).isEqualTo(expected);
    }
    JsonNode damaged = body.get("damaged_sessions");
    assertThat(damaged).hasSize(1);
    assertThat(damaged.get(0).get("owner").asText()).isEqualTo("vorenus");
    assertThat(damaged.get(0).get("session_id").asText()).isNotBlank();
    assertThat(damaged.get(0).get("problem").asText())
        .startsWith("previous_backend_session_ids 'oops' is not a JSON array of strings");
    assertThat(damaged.get(0).get("fix").asText())
        .contains("`legio reset vorenus`", "DELETE FROM sessions WHERE owner = 'vorenus'");

    HttpResponse<String> sessions = f.get("/api/v1/sessions", f.operator);
    assertThat(sessions.statusCode()).as(sessions.body()).isEqualTo(200);
    JsonNode listed = ServerFixture.json(sessions);
    assertThat(listed.get("sessions").findValuesAsText("owner")).contains("pullo");
    assertThat(listed.get("damaged_sessions").findValuesAsText("owner")).containsExactly("vorenus");

    HttpResponse<String> again =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus again"));
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    assertThat(ServerFixture.json(again).get("replies").get(0).get("error").asBoolean()).isFalse();
    JsonNode after = ServerFixture.json(f.get("/api/v1/status", f.operator));
    assertThat(after.get("damaged_sessions")).isEmpty();
  }

  @Test
  void aDamagedChannelRowIsNamedWhicheverChannelsAreListedAndNotCounted() throws Exception {
    // Two chats seen hours ago (idle), then an open one; one of the idle ones is damaged.
    f.channelUsed("telegram:1", Duration.ofHours(3), false);
    f.channelUsed("telegram:2", Duration.ofHours(2), false);
    HttpResponse<String> r =
        f.post("/api/v1/channels/telegram:3/messages", f.gateway, Map.of("text", "hello"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    dev.legio.testing.HandEdits.sqlite(
        f.app.workspace().castra().resolve("praetorium.db"),
        "UPDATE sessions SET state = 'paused' WHERE owner = 'telegram:2'");

    for (String query : List.of("", "?channels=all", "?channels=all&limit=1")) {
      HttpResponse<String> status = f.get("/api/v1/status" + query, f.operator);
      assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
      JsonNode body = ServerFixture.json(status);
      assertThat(body.get("damaged_sessions").findValuesAsText("owner"))
          .as(query)
          .containsExactly("telegram:2");
      assertThat(body.get("channels").findValuesAsText("owner"))
          .as(query)
          .doesNotContain("telegram:2");
      assertThat(body.at("/channel_counts/all").asInt()).as(query).isEqualTo(2);
      assertThat(body.at("/channel_counts/open").asInt()).as(query).isEqualTo(1);
    }
    JsonNode open = ServerFixture.json(f.get("/api/v1/status", f.operator));
    assertThat(open.get("channels").findValuesAsText("owner")).containsExactly("telegram:3");
    JsonNode all = ServerFixture.json(f.get("/api/v1/status?channels=all", f.operator));
    assertThat(all.get("channels").findValuesAsText("owner"))
        .containsExactly("telegram:3", "telegram:1");
    assertThat(all.at("/channel_counts/listed").asInt()).isEqualTo(2);
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
