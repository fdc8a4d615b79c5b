package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory extraction as LegioApp wires it: after the transcript recorder, closed after the engine.
 */
class MemoryExtractionAppTest {
  @TempDir Path dir;
  private final FakeMessagesApi api = FakeMessagesApi.start();
  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");

  @AfterEach
  void stop() {
    api.close();
  }

  private Workspace workspace(String memoryToml) throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path toml = workspace.configFile();
    String text = Files.readString(toml);
    text =
        text.replace("kind = \"auto\"", "kind = \"anthropic\"")
            .replaceFirst("base_url = \"\"", "base_url = \"" + api.baseUrl() + "\"")
            .replaceFirst("api_key_env = \"\"", "api_key_env = \"TEST_ANTHROPIC_KEY\"")
            .replace("extraction_min_messages = 20", memoryToml);
    Files.writeString(toml, text);
    return workspace;
  }

  @Test
  void theFactsOfASessionAreInMemoryOnceTheAppHasClosed() throws Exception {
    Workspace workspace = workspace("extraction_min_messages = 4");
    api.scriptFor(r -> r.lastUserText().contains("<known_facts"));
    api.fallback(r -> Reply.text("Understood."));
    api.enqueue(
        Reply.text(
            "{\"facts\": [{\"category\": \"decision\", \"text\": \"The legion winters at"
                + " Bibracte\", \"confidence\": 0.7}]}"));

    try (LegioApp app =
        LegioApp.open(workspace, Map.of("TEST_ANTHROPIC_KEY", "sk-ant-test-0123456789"), clock)) {
      for (String text : new String[] {"@vorenus where do we winter?", "@vorenus confirm"}) {
        Outcome outcome = app.engine().handle(text, DispatchListener.NONE);
        assertThat(outcome.ok()).as(outcome.toString()).isTrue();
      }
      // No waiting: closing the app lets the engine tell the extractor, then the extractor finish.
    }

    assertThat(api.scriptedRequests()).hasSize(1);
    assertThat(api.scriptedRequests().get(0).lastUserText())
        .contains("where do we winter?")
        .contains("confirm");
    Path memory = dir.resolve("castra/memory/vorenus/MEMORY.md");
    assertThat(Files.readString(memory))
        .contains(
            "### Session memories — 2026-11-21\n"
                + "- [decision] The legion winters at Bibracte (confidence 0.70)\n");
  }

  @Test
  void extractionTurnedOffAsksNothing() throws Exception {
    Workspace workspace = workspace("extraction_min_messages = 2");
    Path toml = workspace.configFile();
    Files.writeString(
        toml, Files.readString(toml).replace("extraction = true", "extraction = false"));
    api.scriptFor(r -> r.lastUserText().contains("<known_facts"));

    try (LegioApp app =
        LegioApp.open(workspace, Map.of("TEST_ANTHROPIC_KEY", "sk-ant-test-0123456789"), clock)) {
      assertThat(app.engine().handle("@vorenus hello", DispatchListener.NONE).ok()).isTrue();
      assertThat(app.engine().handle("@vorenus again", DispatchListener.NONE).ok()).isTrue();
    }

    assertThat(api.scriptedRequests()).isEmpty();
    assertThat(dir.resolve("castra/memory")).doesNotExist();
  }
}
