package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.files.LockFile;
import dev.legio.session.DispatchListener;
import dev.legio.session.SessionRecord;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.TranscriptEntry;
import dev.legio.workspace.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio sessions rewind} killed with SIGKILL half-way, between the session record and the
 * transcript: the transcript's lock is held by this test, so the child stops where it first writes
 * the transcript, and is killed there. The next open of the session (its owner's next turn, in
 * another process) must see one session: what the model is sent and what the transcript holds
 * agree.
 */
class RewindKilledProcessTest {
  private static final Map<String, String> ENV =
      Map.of("TEST_ANTHROPIC_KEY", "sk-ant-test-0123456789");

  @TempDir Path dir;
  private final FakeMessagesApi api = FakeMessagesApi.start();

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void aRewindKilledBetweenRecordAndTranscriptIsFinishedBeforeTheNextTurn() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
    Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + api.baseUrl() + "\"");
    Workspaces.edit(ws, "api_key_env = \"\"", "api_key_env = \"TEST_ANTHROPIC_KEY\"");
    Workspaces.edit(ws, "extraction = true", "extraction = false");
    api.fallback(r -> Reply.text("Noted: " + r.lastUserText().replaceAll("(?s).*\n\n", "")));
    Workspace workspace = new Workspace(ws);

    String sessionId;
    String before;
    Path folder;
    try (LegioApp app = LegioApp.open(workspace, ENV, Clock.systemUTC())) {
      for (String text : new String[] {"@vorenus one", "@vorenus two", "@vorenus three"}) {
        assertThat(app.engine().handle(text, DispatchListener.NONE).ok()).isTrue();
      }
      SessionRecord record = app.sessions().find("vorenus").orElseThrow();
      sessionId = record.sessionId().toString();
      before = record.backendSessionId();
      folder = ((FileTranscriptStore) app.transcripts()).folder();
    }

    Path note = folder.resolve("." + sessionId + ".rewind");
    LockFile.at(folder.resolve("." + sessionId + ".lock"))
        .run(
            () -> {
              try (LegioProcess rewind =
                      LegioProcess.start(
                          dir,
                          ENV,
                          "--castra",
                          ws.toString(),
                          "sessions",
                          "rewind",
                          sessionId,
                          "--last",
                          "1");
                  LegioApp watcher = LegioApp.open(workspace, ENV, Clock.systemUTC())) {
                // The child is at the transcript, blocked on the lock held here, once it has
                // written what comes before it: the session record, or the note of the rewind.
                long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                while (!Files.exists(note)
                    && before.equals(
                        watcher.sessions().find("vorenus").orElseThrow().backendSessionId())) {
                  assertThat(rewind.isAlive()).as(rewind.stderr()).isTrue();
                  assertThat(System.nanoTime())
                      .as("the rewind never reached the transcript")
                      .isLessThan(deadline);
                  pause(20);
                }
                pause(200); // whatever it would write before blocking, it has written
                rewind.signal("KILL");
                assertThat(rewind.awaitExit(Duration.ofSeconds(30))).isEqualTo(137);
              }
              return null;
            });

    // A minute later (the killed edit's lease on vorenus, 30 s, has run out), in a new process.
    Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1));
    FakeMessagesApi.Request sent;
    try (LegioApp app = LegioApp.open(workspace, ENV, later)) {
      assertThat(app.engine().handle("@vorenus four", DispatchListener.NONE).ok()).isTrue();
      sent = api.requests().get(api.requests().size() - 1);
    } // closing waits until the turn is in the transcript

    try (LegioApp app = LegioApp.open(workspace, ENV, later)) {
      List<TranscriptEntry> entries = app.transcripts().load(sessionId).entries();
      List<String> texts = entries.stream().map(TranscriptEntry::text).toList();
      String said = String.join("|", sent.messageTexts());
      // The model and the transcript agree: both without "three", or both with it.
      assertThat(said.contains("three"))
          .as("model was sent %s; transcript holds %s", said, texts)
          .isEqualTo(texts.stream().anyMatch(t -> t.contains("three")));
      // The rewind was decided before the kill, so it is finished.
      assertThat(said).contains("one", "two", "four").doesNotContain("three");
      assertThat(texts).hasSize(6).noneMatch(t -> t.contains("three"));
      // The new turn continues the chain from the point, as Claude Code follows it.
      assertThat(entries.get(4).parentUuid()).isEqualTo(entries.get(3).uuid());
      assertThat(note).doesNotExist();
      SessionRecord record = app.sessions().find("vorenus").orElseThrow();
      assertThat(record.sessionId()).isEqualTo(UUID.fromString(sessionId));
      assertThat(record.backendSessionId()).isNotEqualTo(before);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
