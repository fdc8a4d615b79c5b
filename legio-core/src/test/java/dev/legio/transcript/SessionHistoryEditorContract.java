package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationTurn;
import dev.legio.session.SessionRecord;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SessionHistoryEditor} over a real store (SQLite, PostgreSQL) and transcript folder: a
 * session of three turns on an HTTP back-end's stored conversation, and one on a CLI transcript.
 */
abstract class SessionHistoryEditorContract {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  LegioStore store;
  TranscriptStore transcripts;
  TranscriptStore cliTranscripts;
  SessionHistoryEditor editor;
  UUID sessionId;
  UUID conversationId;
  final List<UUID> answers = new ArrayList<>();

  abstract LegioStore openStore(Path dir, MutableClock clock);

  @BeforeEach
  void setUp() {
    store = openStore(dir, clock);
    transcripts = new FileTranscriptStore(dir.resolve("transcripts"), dir, clock);
    cliTranscripts = new FileTranscriptStore(dir.resolve("cli/projects"), dir, clock);
    editor =
        new SessionHistoryEditor(
            store.sessions(), transcripts, store.conversations(), cliTranscripts, clock);
    sessionId = UUID.randomUUID();
    conversationId = UUID.randomUUID();
    List<ConversationTurn> turns = new ArrayList<>();
    List<NewEntry> entries = new ArrayList<>();
    entries.add(NewEntry.agentName("vorenus"));
    UUID parent = null;
    Instant now = clock.instant();
    for (int i = 0; i < 3; i++) {
      turns.add(
          new ConversationTurn(
              i,
              List.of(
                  new ChatMessage.User("question " + i),
                  new ChatMessage.Assistant("answer " + i, List.of())),
              Usage.NONE,
              10,
              now));
      NewEntry.Message q = NewEntry.user(parent, "question " + i);
      NewEntry.Message a = NewEntry.assistant(q.uuid(), "answer " + i, "m");
      entries.add(q);
      entries.add(a);
      answers.add(a.uuid());
      parent = a.uuid();
    }
    store
        .conversations()
        .create(
            new Conversation(
                conversationId, "vorenus", "anthropic", "m", "system", null, null, now, turns));
    transcripts.append(sessionId.toString(), entries);
    store.sessions().save(record("vorenus", sessionId, conversationId.toString()));
  }

  SessionRecord record(String owner, UUID id, String backendId) {
    Instant now = clock.instant();
    return new SessionRecord(
        owner,
        id,
        "anthropic",
        backendId,
        "hash",
        null,
        0,
        0,
        6,
        42,
        now,
        now,
        now.plus(Duration.ofDays(30)),
        SessionRecord.State.ACTIVE,
        null,
        0);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private List<String> texts(String session) {
    return transcripts.load(session).entries().stream().map(TranscriptEntry::text).toList();
  }

  private List<String> conversationTexts(String id) {
    return store.conversations().find(UUID.fromString(id)).orElseThrow().messages().stream()
        .map(m -> m.toString())
        .toList();
  }

  @Test
  void rewindingTheLastTurnTombstonesItAndPointsTheSessionAtTheCutConversation() {
    SessionHistoryEditor.Result r =
        editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1));

    assertThat(r.turnsRemoved()).isEqualTo(1);
    assertThat(r.entriesRemoved()).isEqualTo(2);
    assertThat(texts(sessionId.toString()))
        .containsExactly("question 0", "answer 0", "question 1", "answer 1");
    SessionRecord after = store.sessions().find("vorenus").orElseThrow();
    assertThat(after.sessionId()).isEqualTo(sessionId);
    assertThat(after.active()).isTrue();
    assertThat(after.backendSessionId())
        .isEqualTo(r.backendSessionId())
        .isNotEqualTo(conversationId.toString());
    Conversation cut =
        store.conversations().find(UUID.fromString(r.backendSessionId())).orElseThrow();
    assertThat(cut.turns()).hasSize(2);
    assertThat(cut.systemPrompt()).isEqualTo("system");
    assertThat(conversationTexts(r.backendSessionId()).toString()).doesNotContain("question 2");
    // The original conversation is left as it was.
    assertThat(store.conversations().find(conversationId).orElseThrow().turns()).hasSize(3);
  }

  @Test
  void rewindingToAnEntryKeepsItAndWhatCameBefore() {
    SessionHistoryEditor.Result r =
        editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.AtEntry(answers.get(0)));

    assertThat(r.turnsRemoved()).isEqualTo(2);
    assertThat(texts(sessionId.toString())).containsExactly("question 0", "answer 0");
    assertThat(
            store.conversations().find(UUID.fromString(r.backendSessionId())).orElseThrow().turns())
        .hasSize(1);
  }

  @Test
  void aForkAndItsOriginDiverge() {
    SessionHistoryEditor.Result fork =
        editor.fork(
            sessionId.toString(), new SessionHistoryEditor.Point.AtEntry(answers.get(1)), "pullo");

    assertThat(fork.sessionId()).isNotEqualTo(sessionId);
    assertThat(fork.owner()).isEqualTo("pullo");
    assertThat(texts(fork.sessionId().toString()))
        .containsExactly("question 0", "answer 0", "question 1", "answer 1");
    assertThat(transcripts.load(fork.sessionId().toString()).owner()).isEqualTo("pullo");
    SessionRecord forked = store.sessions().find("pullo").orElseThrow();
    assertThat(forked.sessionId()).isEqualTo(fork.sessionId());
    assertThat(forked.active()).isTrue();
    assertThat(forked.lastInjectedSequence()).isEqualTo(42);
    assertThat(
            store
                .conversations()
                .find(UUID.fromString(fork.backendSessionId()))
                .orElseThrow()
                .turns())
        .hasSize(2);

    // The origin is as it was.
    assertThat(texts(sessionId.toString())).hasSize(6);
    SessionRecord origin = store.sessions().find("vorenus").orElseThrow();
    assertThat(origin.backendSessionId()).isEqualTo(conversationId.toString());
    assertThat(store.conversations().find(conversationId).orElseThrow().turns()).hasSize(3);

    // Rewinding the origin leaves the fork alone.
    editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(3));
    assertThat(texts(sessionId.toString())).isEmpty();
    assertThat(texts(fork.sessionId().toString())).hasSize(4);
  }

  @Test
  void aClaudeCliConversationIsRewrittenIntoANewCliTranscript() {
    String cliId = UUID.randomUUID().toString();
    List<NewEntry> cli = new ArrayList<>();
    UUID parent = null;
    for (int i = 0; i < 3; i++) {
      NewEntry.Message q = NewEntry.user(parent, "question " + i);
      NewEntry.Message a = NewEntry.assistant(q.uuid(), "answer " + i, "m");
      cli.add(q);
      cli.add(a);
      parent = a.uuid();
    }
    cliTranscripts.append(cliId, cli);
    store.sessions().save(record("vorenus", sessionId, cliId));

    SessionHistoryEditor.Result r =
        editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(2));

    assertThat(r.backendSessionId()).isNotEqualTo(cliId);
    assertThat(cliTranscripts.load(r.backendSessionId()).entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("question 0", "answer 0");
    assertThat(cliTranscripts.load(cliId).entries()).hasSize(6);
    assertThat(store.sessions().find("vorenus").orElseThrow().backendSessionId())
        .isEqualTo(r.backendSessionId());
  }

  @Test
  void anUnknownSessionOrEntryIsRefusedAndChangesNothing() {
    assertThatThrownBy(
            () ->
                editor.rewind(
                    UUID.randomUUID().toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no session");
    assertThatThrownBy(
            () ->
                editor.rewind(
                    sessionId.toString(),
                    new SessionHistoryEditor.Point.AtEntry(UUID.randomUUID())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no entry");
    assertThatThrownBy(
            () -> editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 3 turns");
    assertThat(texts(sessionId.toString())).hasSize(6);
    assertThat(store.sessions().find("vorenus").orElseThrow().backendSessionId())
        .isEqualTo(conversationId.toString());
  }
}
