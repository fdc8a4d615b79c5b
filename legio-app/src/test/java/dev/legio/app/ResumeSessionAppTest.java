package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.PraetoriumXml;
import dev.legio.session.DispatchListener;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionRecord;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
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

/**
 * {@code legio chat --resume ID} as the app wires it ({@link SessionEngine#resume}), against the
 * loopback Messages API: the resumed session's next request is the stored conversation plus the new
 * message, no bootstrap.
 */
class ResumeSessionAppTest {
  private static final Map<String, String> ENV =
      Map.of("TEST_ANTHROPIC_KEY", "sk-ant-test-0123456789");

  @TempDir Path dir;
  private final FakeMessagesApi api = FakeMessagesApi.start();
  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");

  @AfterEach
  void stop() {
    api.close();
  }

  private Workspace workspace() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path toml = workspace.configFile();
    String text =
        Files.readString(toml)
            .replace("kind = \"auto\"", "kind = \"anthropic\"")
            .replaceFirst("base_url = \"\"", "base_url = \"" + api.baseUrl() + "\"")
            .replaceFirst("api_key_env = \"\"", "api_key_env = \"TEST_ANTHROPIC_KEY\"")
            .replace("extraction = true", "extraction = false");
    Files.writeString(toml, text);
    return workspace;
  }

  @Test
  void aResumedChatSendsNoBootstrapAndContinuesTheStoredConversation() throws Exception {
    Workspace workspace = workspace();
    api.fallback(r -> Reply.text("Noted."));
    String sessionId;
    try (LegioApp app = LegioApp.open(workspace, ENV, clock)) {
      assertThat(app.engine().handle("@vorenus remember the eagle", DispatchListener.NONE).ok())
          .isTrue();
      sessionId = app.sessions().find("vorenus").orElseThrow().sessionId().toString();
      assertThat(app.engine().reset("vorenus")).isTrue();
    }

    try (LegioApp app = LegioApp.open(workspace, ENV, clock)) {
      SessionEngine.Resumed resumed = app.engine().resume(sessionId, "legatus");
      assertThat(resumed.owner()).isEqualTo("vorenus");
      assertThat(resumed.known()).isTrue();
      SessionRecord record = app.sessions().find("vorenus").orElseThrow();
      assertThat(record.active()).isTrue();
      assertThat(record.sessionId().toString()).isEqualTo(sessionId);

      assertThat(app.engine().handle("@vorenus what did I ask?", DispatchListener.NONE).ok())
          .isTrue();
    }

    List<FakeMessagesApi.Request> requests = api.requests();
    FakeMessagesApi.Request last = requests.get(requests.size() - 1);
    assertThat(last.messageTexts()).hasSize(3);
    assertThat(last.messageTexts().get(0)).contains("remember the eagle");
    assertThat(last.messageTexts().get(1)).isEqualTo("Noted.");
    assertThat(last.lastUserText())
        .contains("what did I ask?")
        .doesNotContain("<praetorium")
        .doesNotContain(PraetoriumXml.CONTEXT_NOTICE);
  }

  @Test
  void withoutResumeTheTurnAfterAResetIsRebuiltFromThePraetorium() throws Exception {
    Workspace workspace = workspace();
    api.fallback(r -> Reply.text("Noted."));
    try (LegioApp app = LegioApp.open(workspace, ENV, clock)) {
      app.engine().handle("@vorenus remember the eagle", DispatchListener.NONE);
      app.engine().reset("vorenus");
      app.engine().handle("@vorenus what did I ask?", DispatchListener.NONE);
    }
    List<FakeMessagesApi.Request> requests = api.requests();
    FakeMessagesApi.Request last = requests.get(requests.size() - 1);
    assertThat(last.messageTexts()).hasSize(1);
    assertThat(last.lastUserText()).contains("<praetorium").contains("remember the eagle");
  }

  @Test
  void aRewoundSessionsNextRequestNoLongerHoldsTheRewoundTurnsAndAForkDiverges() throws Exception {
    Workspace workspace = workspace();
    api.fallback(r -> Reply.text("Noted: " + r.lastUserText().replaceAll("(?s).*\n\n", "")));
    String sessionId;
    try (LegioApp app = LegioApp.open(workspace, ENV, clock)) {
      for (String text : new String[] {"@vorenus one", "@vorenus two", "@vorenus three"}) {
        assertThat(app.engine().handle(text, DispatchListener.NONE).ok()).isTrue();
      }
      sessionId = app.sessions().find("vorenus").orElseThrow().sessionId().toString();
    }

    try (LegioApp app = LegioApp.open(workspace, ENV, clock)) {
      // The live engine holds the session: the rewind must still take effect on its next turn.
      assertThat(app.engine().handle("@vorenus four", DispatchListener.NONE).ok()).isTrue();
      app.historyEditor()
          .rewind(sessionId, new dev.legio.transcript.SessionHistoryEditor.Point.LastTurns(2));
      assertThat(app.engine().handle("@vorenus five", DispatchListener.NONE).ok()).isTrue();
      FakeMessagesApi.Request rewound = api.requests().get(api.requests().size() - 1);
      assertThat(String.join("|", rewound.messageTexts()))
          .contains("one", "two")
          .doesNotContain("three")
          .doesNotContain("four");
      assertThat(rewound.lastUserText()).contains("five").doesNotContain("<praetorium");

      var fork =
          app.historyEditor()
              .fork(sessionId, new dev.legio.transcript.SessionHistoryEditor.Point.End(), "pullo");
      assertThat(app.engine().handle("@pullo six", DispatchListener.NONE).ok()).isTrue();
      FakeMessagesApi.Request forked = api.requests().get(api.requests().size() - 1);
      assertThat(app.engine().handle("@vorenus seven", DispatchListener.NONE).ok()).isTrue();
      FakeMessagesApi.Request origin = api.requests().get(api.requests().size() - 1);

      assertThat(fork.owner()).isEqualTo("pullo");
      assertThat(String.join("|", forked.messageTexts()))
          .contains("one", "two", "five", "six")
          .doesNotContain("seven");
      assertThat(String.join("|", origin.messageTexts()))
          .contains("one", "two", "five", "seven")
          .doesNotContain("six");
    }
  }
}
