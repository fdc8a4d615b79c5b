package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.config.ConfigException;
import dev.legio.log.Names;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP back-ends wired by LegioApp, driven through the session engine. */
class HttpBackendAppTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final LoopbackHttpServer ollama = LoopbackHttpServer.start();
  private final MutableClock clock = MutableClock.at("2026-03-01T09:00:00Z");

  @AfterEach
  void stop() {
    ollama.close();
  }

  private Workspace workspace(String backendToml) throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path toml = workspace.configFile();
    String text = Files.readString(toml);
    int start = text.indexOf("[backend]");
    int end = text.indexOf("[sessions]");
    Files.writeString(toml, text.substring(0, start) + backendToml + "\n" + text.substring(end));
    return workspace;
  }

  private static Reply answer(long promptEval, long eval, String text) {
    ObjectNode piece = JSON.createObjectNode().put("model", "llama3.2").put("done", false);
    piece.putObject("message").put("role", "assistant").put("content", text);
    ObjectNode done = JSON.createObjectNode().put("model", "llama3.2").put("done", true);
    done.putObject("message").put("role", "assistant").put("content", "");
    done.put("prompt_eval_count", promptEval).put("eval_count", eval);
    return Reply.stream("application/x-ndjson", List.of(piece + "\n", done + "\n"));
  }

  private static Reply toolCall(String name, String argumentsJson) throws Exception {
    ObjectNode call = JSON.createObjectNode().put("model", "llama3.2").put("done", false);
    ObjectNode m = call.putObject("message").put("role", "assistant").put("content", "");
    m.putArray("tool_calls")
        .addObject()
        .putObject("function")
        .put("name", name)
        .set("arguments", JSON.readTree(argumentsJson));
    ObjectNode done = JSON.createObjectNode().put("model", "llama3.2").put("done", true);
    done.putObject("message").put("role", "assistant").put("content", "");
    done.put("prompt_eval_count", 30).put("eval_count", 10);
    return Reply.stream("application/x-ndjson", List.of(call + "\n", done + "\n"));
  }

  private List<String> toolsOffered(int request) {
    List<String> names = new java.util.ArrayList<>();
    ollama
        .requests()
        .get(request)
        .json()
        .path("tools")
        .forEach(t -> names.add(t.at("/function/name").asText()));
    return names;
  }

  private JsonNode messagesOf(int request) {
    return ollama.requests().get(request).json().get("messages");
  }

  @Test
  void turnsAlternatingBetweenTwoProcessesContinueOneConversation() throws Exception {
    Workspace workspace =
        workspace(
            "[backend]\nkind = \"ollama\"\nbase_url = \""
                + ollama.baseUrl()
                + "\"\nmax_retries = 0\n");
    ollama.enqueue(answer(100, 5, "One."), answer(120, 5, "Two."), answer(140, 5, "Three."));
    // Two processes on one praetorium (two nodes): the conversation is in the database.
    try (LegioApp a = LegioApp.open(workspace, Map.of(), clock);
        LegioApp b = LegioApp.open(workspace, Map.of(), clock)) {
      Outcome one = a.engine().handle("@pullo first", DispatchListener.NONE);
      Outcome two = b.engine().handle("@pullo second", DispatchListener.NONE);
      Outcome three = a.engine().handle("@pullo third", DispatchListener.NONE);

      assertThat(List.of(one, two, three))
          .allSatisfy(o -> assertThat(o.ok()).as(o.replies().get(0).text()).isTrue());
      assertThat(three.replies().get(0).text()).contains("Three.");
      // The third request carries the whole conversation, b's turn included, once.
      List<String> sent = new java.util.ArrayList<>();
      messagesOf(2).forEach(m -> sent.add(m.get("role").asText() + ": " + m.get("content")));
      assertThat(sent.stream().filter(m -> m.contains("Two.")).count()).isEqualTo(1);
      assertThat(sent.stream().filter(m -> m.startsWith("user: ")).count()).isEqualTo(3);
    }
  }

  @Test
  void anOllamaSessionIsCompactedRecordedAndResumedAfterARestart() throws Exception {
    Workspace workspace =
        workspace(
            "[backend]\nkind = \"ollama\"\nbase_url = \""
                + ollama.baseUrl()
                + "\"\nmax_retries = 0\n[backend.context_windows]\n\"llama3.2\" = 2000\n");
    // [context] from legio.toml reaches the back-end: keep only the 2 most recent messages.
    Path toml = workspace.configFile();
    String text = Files.readString(toml);
    assertThat(text).contains("keep_recent_messages = 10");
    Files.writeString(toml, text.replace("keep_recent_messages = 10", "keep_recent_messages = 2"));
    ollama.enqueue(
        answer(300, 20, "The road is clear."),
        answer(1700, 200, "Two."),
        answer(1700, 50, "Pullo scouted the north road; it is clear."),
        answer(300, 10, "Three."));
    String first;
    List<dev.legio.backend.BackendEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      assertThat(app.backend().kind()).isEqualTo("ollama");
      assertThat(app.backendChoice()).contains("[backend] kind");
      Outcome one = app.engine().handle("@pullo Scout the north road", DispatchListener.NONE);
      assertThat(one.ok()).isTrue();
      assertThat(one.replies().get(0).text()).contains("The road is clear.");
      first = app.sessions().find("pullo").orElseThrow().backendSessionId();
      assertThat(first).isNotNull();

      Outcome two = app.engine().handle("@pullo And now?", DispatchListener.NONE);
      assertThat(two.replies().get(0).text()).contains("Two.");
      // 1900 tokens of 2000: past 0.9 of the window, compacted before the next turn.
      Outcome three = app.engine().handle("@pullo Report", (agent, event) -> events.add(event));
      assertThat(three.replies().get(0).text()).contains("Three.");
    }
    assertThat(events)
        .filteredOn(e -> e instanceof dev.legio.backend.BackendEvent.CompactionEnded)
        .hasSize(1);
    // The summary request held the first turn; the next request the summary and the kept turn.
    assertThat(messagesOf(2).at("/1/content").asText())
        .contains("Scout the north road")
        .doesNotContain("And now?");
    assertThat(messagesOf(3)).hasSize(5);
    assertThat(messagesOf(3).at("/1/content").asText())
        .contains("<context_summary>\nPullo scouted the north road; it is clear.\n");
    assertThat(messagesOf(3).at("/2/content").asText()).contains("And now?");
    assertThat(messagesOf(3).at("/3/content").asText()).isEqualTo("Two.");

    ollama.enqueue(answer(400, 10, "Four."));
    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      var record = app.sessions().find("pullo").orElseThrow();
      String second = record.backendSessionId();
      assertThat(second).isNotEqualTo(first);
      assertThat(
              app.conversations()
                  .find(java.util.UUID.fromString(second))
                  .orElseThrow()
                  .previousId())
          .hasToString(first);
      // The transcript has the compaction as a summary entry, before the turn it preceded.
      var entries = app.transcripts().load(record.sessionId().toString()).entries();
      assertThat(entries)
          .extracting(dev.legio.transcript.TranscriptEntry::type)
          .containsExactly(
              "user", "assistant", "user", "assistant", "summary", "user", "assistant");
      assertThat(entries.get(4).messagesCompacted()).isEqualTo(2);
      assertThat(entries.get(4).text()).contains("Pullo scouted the north road");

      Outcome four = app.engine().handle("@pullo Report again", DispatchListener.NONE);
      assertThat(four.replies().get(0).text()).contains("Four.");
      assertThat(app.sessions().find("pullo").orElseThrow().backendSessionId()).isEqualTo(second);
    }
    // After the restart the same conversation went out again, with the new message at the end.
    JsonNode before = messagesOf(3);
    JsonNode after = messagesOf(4);
    assertThat(after).hasSize(7);
    for (int i = 0; i < before.size(); i++) {
      assertThat(after.get(i)).isEqualTo(before.get(i));
    }
    assertThat(after.at("/5/content").asText()).isEqualTo("Three.");
    assertThat(after.at("/6/content").asText()).contains("Report again");
  }

  @Test
  void aChatChannelsModelCallsListEdictaAndTheResultReachesItsNextRequest() throws Exception {
    Workspace workspace =
        workspace(
            "[backend]\nkind = \"ollama\"\nbase_url = \""
                + ollama.baseUrl()
                + "\"\nmax_retries = 0\n");
    ollama.enqueue(
        toolCall("list_edicta", "{}"),
        answer(80, 12, "One edictum is in force: never force-push."),
        answer(40, 5, "Ave."));
    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      app.memoria()
          .forLegatus(Names.LEGATUS)
          .publishEdictum("no-force-push", "Never force-push to main.");

      Outcome chat =
          app.engine().handleChannel("telegram:42", "What are the rules?", DispatchListener.NONE);
      assertThat(chat.ok()).isTrue();
      assertThat(chat.replies().get(0).text())
          .contains("One edictum is in force: never force-push.");

      // telegram is a chat source: reading tools only, offered with every request of the turn.
      List<String> chatTools =
          List.of("list_edicta", "read_edictum", "list_acta", "read_actum", "search_memoria");
      assertThat(toolsOffered(0)).containsExactlyElementsOf(chatTools);
      assertThat(toolsOffered(1)).containsExactlyElementsOf(chatTools);
      JsonNode messages = messagesOf(1);
      JsonNode last = messages.get(messages.size() - 1);
      assertThat(last.get("role").asText()).isEqualTo("tool");
      assertThat(last.get("tool_name").asText()).isEqualTo("list_edicta");
      assertThat(last.get("content").asText())
          .startsWith("<edicta>")
          .contains("<edictum name=\"no-force-push\" author=\"legatus\"");
      assertThat(messages.get(messages.size() - 2).at("/tool_calls/0/function/name").asText())
          .isEqualTo("list_edicta");

      // viewer is an operator source: the legatus's tools.
      Outcome viewer = app.engine().handleChannel("viewer:1", "Status?", DispatchListener.NONE);
      assertThat(viewer.ok()).isTrue();
      assertThat(toolsOffered(2)).contains("publish_edictum", "dispatch", "get_history");
    }
  }

  @Test
  void autoPicksAnthropicWhenItsKeyIsSetAndSaysWhy() throws Exception {
    Workspace workspace = workspace("[backend]\nkind = \"auto\"\n");
    try (LegioApp app =
        LegioApp.open(workspace, Map.of("ANTHROPIC_API_KEY", "sk-ant-secret-1234"), clock)) {
      assertThat(app.backend().kind()).isEqualTo("anthropic");
      assertThat(app.backend().canResume()).isTrue();
      assertThat(app.backendChoice())
          .contains("ANTHROPIC_API_KEY is set")
          .doesNotContain("sk-ant-secret-1234");
    }
  }

  @Test
  void anthropicWithoutAKeyIsAConfigurationError() throws Exception {
    Workspace workspace = workspace("[backend]\nkind = \"anthropic\"\n");
    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      assertThatThrownBy(app::backend)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("ANTHROPIC_API_KEY");
    }
  }
}
