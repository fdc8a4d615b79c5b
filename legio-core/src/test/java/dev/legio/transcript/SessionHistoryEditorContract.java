package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.ConversationTurn;
import dev.legio.session.LeaseLostException;
import dev.legio.session.RecordWriter;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStore;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SessionHistoryEditor} over a real store (SQLite, PostgreSQL) and transcript folder: a
 * session of three turns on an HTTP back-end's stored conversation, and one on a CLI transcript.
 */
abstract class SessionHistoryEditorContract {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  LegioStore store;
  FileTranscriptStore transcripts;
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
            store.sessions(),
            RewindJournal.beside(transcripts),
            store.conversations(),
            cliTranscripts,
            clock);
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
    if (store != null) {
      store.close();
    }
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

  @Test
  void aTranscriptRenamedByHandIsRefusedARewindBeforeAnythingIsWrittenAndCanBeForked() {
    String renamed = "renamed-by-hand";
    List<NewEntry> entries = new ArrayList<>();
    entries.add(NewEntry.agentName("vorenus"));
    UUID parent = null;
    for (int i = 0; i < 3; i++) {
      NewEntry.Message q = NewEntry.user(parent, "question " + i);
      NewEntry.Message a = NewEntry.assistant(q.uuid(), "answer " + i, "m");
      entries.add(q);
      entries.add(a);
      parent = a.uuid();
    }
    transcripts.create(renamed, entries);
    long before = transcripts.load(renamed).entries().size();

    assertThatThrownBy(() -> editor.rewind(renamed, new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be rewound: its id is not a UUID")
        .hasMessageContaining("legio sessions fork " + renamed);
    assertThat(transcripts.load(renamed).entries()).hasSize((int) before);
    assertThat(transcripts.load(renamed).report().hasProblems()).isFalse();

    SessionHistoryEditor.Result fork =
        editor.fork(renamed, new SessionHistoryEditor.Point.LastTurns(1), "vorenus");
    assertThat(texts(fork.sessionId().toString()))
        .containsExactly("question 0", "answer 0", "question 1", "answer 1");
  }

  // ------------------------------------------------------------------ a rewind cut short

  /** A process killed where it stands: no catch or finally of the editor's sees it. */
  static final class Crash extends Error {
    Crash(String where) {
      super("killed " + where);
    }
  }

  /** Where a rewind is killed. */
  enum Step {
    /** The cut conversation is stored; nothing else is written. */
    AFTER_COPY,
    /** The rewind's note is on disk; the record is not written. */
    BEFORE_RECORD,
    /** The record names the cut conversation; no tombstone is written. */
    AFTER_RECORD,
    /** One tombstone of two is written. */
    MID_TOMBSTONES,
    /** Every tombstone is written; the note is still there. */
    AFTER_TOMBSTONES
  }

  /** Calls on to the real object; what the interception does around it. */
  @FunctionalInterface
  interface Around {
    Object call(Method method, Object[] args, Proceed proceed) throws Throwable;
  }

  @FunctionalInterface
  interface Proceed {
    Object run(Object[] args) throws Throwable;
  }

  @SuppressWarnings("unchecked")
  static <T> T around(Class<T> type, T target, Around around) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) ->
                around.call(
                    method,
                    args,
                    a -> {
                      try {
                        return method.invoke(target, a);
                      } catch (InvocationTargetException e) {
                        throw e.getCause();
                      }
                    }));
  }

  /** An editor over the real stores that is killed at {@code step} of a rewind. */
  private SessionHistoryEditor killedAt(Step step) {
    ConversationStore conversations =
        around(
            ConversationStore.class,
            store.conversations(),
            (m, args, proceed) -> {
              Object r = proceed.run(args);
              if (step == Step.AFTER_COPY && m.getName().equals("create")) {
                throw new Crash("after the copy");
              }
              return r;
            });
    SessionStore sessions =
        around(
            SessionStore.class,
            store.sessions(),
            (m, args, proceed) -> {
              if (!m.getName().equals("save")) {
                return proceed.run(args);
              }
              if (step == Step.BEFORE_RECORD) {
                throw new Crash("before the record");
              }
              Object r = proceed.run(args);
              if (step == Step.AFTER_RECORD) {
                throw new Crash("after the record");
              }
              return r;
            });
    TranscriptStore tombstones =
        around(
            TranscriptStore.class,
            transcripts,
            (m, args, proceed) -> {
              if (!m.getName().equals("append")) {
                return proceed.run(args);
              }
              List<?> entries = (List<?>) args[1];
              if (step == Step.MID_TOMBSTONES) {
                proceed.run(new Object[] {args[0], entries.subList(0, 1)});
                throw new Crash("between two tombstones");
              }
              Object r = proceed.run(args);
              if (step == Step.AFTER_TOMBSTONES) {
                throw new Crash("after the tombstones");
              }
              return r;
            });
    return new SessionHistoryEditor(
        sessions,
        new RewindJournal(transcripts.folder(), tombstones),
        conversations,
        cliTranscripts,
        clock);
  }

  /** What the engine does before vorenus's next turn, in a new process. */
  private SessionRecord nextTurnOpens() {
    return RewindJournal.beside(new FileTranscriptStore(dir.resolve("transcripts"), dir, clock))
        .finish(
            store.sessions().find("vorenus").orElseThrow(), RecordWriter.plain(store.sessions()));
  }

  /** The turns the model is resumed with, and the turns the transcript shows: one number. */
  private void assertOneSessionOf(int turns) throws Exception {
    SessionRecord record = store.sessions().find("vorenus").orElseThrow();
    assertThat(record.sessionId()).isEqualTo(sessionId);
    assertThat(
            store
                .conversations()
                .find(UUID.fromString(record.backendSessionId()))
                .orElseThrow()
                .turns())
        .as("turns of the conversation the record resumes")
        .hasSize(turns);
    List<String> shown = texts(sessionId.toString());
    assertThat(shown).as("entries of the transcript").hasSize(2 * turns);
    for (int i = 0; i < turns; i++) {
      assertThat(shown.get(2 * i)).isEqualTo("question " + i);
    }
    assertThat(RewindJournal.beside(transcripts).noteOf(sessionId.toString())).doesNotExist();
    // Each entry taken back is tombstoned once, whatever was retried.
    long tombstones =
        Files.readAllLines(transcripts.file(sessionId.toString())).stream()
            .filter(line -> line.contains("\"tombstone\""))
            .count();
    assertThat(tombstones).isEqualTo(2L * (3 - turns));
  }

  @ParameterizedTest
  @EnumSource(Step.class)
  void aRewindKilledAtAnyStepIsFinishedOrUndoneWholeBeforeTheNextTurn(Step step) throws Exception {
    assertThatThrownBy(
            () ->
                killedAt(step)
                    .rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(Crash.class);

    SessionRecord next = nextTurnOpens();

    // Killed before its note the rewind never happened; killed after, it is finished.
    int turns = step == Step.AFTER_COPY ? 3 : 2;
    assertOneSessionOf(turns);
    assertThat(next).isEqualTo(store.sessions().find("vorenus").orElseThrow());
    // And the session goes on from there: one more turn taken back is one turn, on both sides.
    editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1));
    assertOneSessionOf(turns - 1);
  }

  @ParameterizedTest
  @EnumSource(Step.class)
  void aRewindRunAgainAfterItWasKilledTakesBackItsTurnsOnce(Step step) throws Exception {
    assertThatThrownBy(
            () ->
                killedAt(step)
                    .rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(Crash.class);

    // Before, the record already named the cut conversation while the transcript still showed
    // the turn: run again, the rewind cut the conversation twice and the transcript once.
    SessionHistoryEditor.Result again =
        editor.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1));

    assertThat(again.turnsRemoved()).isEqualTo(1);
    assertOneSessionOf(step == Step.AFTER_COPY ? 2 : 1);
  }

  /**
   * An editor whose record write finds the lease taken by another holder, after {@code meanwhile}
   * (what else happens at that moment).
   */
  private SessionHistoryEditor leaseTakenAtTheRecordWrite(ThrowingRunnable meanwhile) {
    SessionStore leaseTaken =
        around(
            SessionStore.class,
            store.sessions(),
            (m, args, proceed) -> {
              if (m.getName().equals("save")) {
                meanwhile.run();
                throw new LeaseLostException("vorenus", "edit-1");
              }
              return proceed.run(args);
            });
    return new SessionHistoryEditor(
        leaseTaken,
        RewindJournal.beside(transcripts),
        store.conversations(),
        cliTranscripts,
        clock);
  }

  /** Something to do that may throw. */
  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void aRewindWhoseRecordWriteFindsTheLeaseTakenChangesNothing() throws Exception {
    SessionHistoryEditor editing = leaseTakenAtTheRecordWrite(() -> {});

    assertThatThrownBy(
            () -> editing.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(LeaseLostException.class);

    assertThat(store.sessions().find("vorenus").orElseThrow().backendSessionId())
        .isEqualTo(conversationId.toString());
    nextTurnOpens();
    assertOneSessionOf(3);
  }

  @Test
  void aRewindWhoseLeaseWasTakenAndWhoseNoteCannotGoSaysWhichFileToDelete() throws Exception {
    Path note = RewindJournal.beside(transcripts).noteOf(sessionId.toString());
    SessionHistoryEditor editing =
        leaseTakenAtTheRecordWrite(
            () -> {
              // The note can no longer be deleted (a folder with something in it, even for root).
              Files.delete(note);
              Files.createDirectories(note.resolve("held"));
            });

    assertThatThrownBy(
            () -> editing.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("was not made")
        .hasMessageContaining(note.toString())
        .hasMessageContaining("delete that file by hand before the session's next turn")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .isInstanceOf(LeaseLostException.class));

    // Deleted as told, the session goes on as if the rewind had never been asked for.
    Files.delete(note.resolve("held"));
    Files.delete(note);
    assertThat(store.sessions().find("vorenus").orElseThrow().backendSessionId())
        .isEqualTo(conversationId.toString());
    nextTurnOpens();
    assertOneSessionOf(3);
  }

  @Test
  void aTranscriptThatCannotTakeTheTombstonesIsCaughtUpAtTheNextTurn() throws Exception {
    TranscriptStore full =
        around(
            TranscriptStore.class,
            transcripts,
            (m, args, proceed) -> {
              if (m.getName().equals("append")) {
                throw new TranscriptFullException("the transcript is full (in this test)");
              }
              return proceed.run(args);
            });
    SessionHistoryEditor editing =
        new SessionHistoryEditor(
            store.sessions(),
            new RewindJournal(transcripts.folder(), full),
            store.conversations(),
            cliTranscripts,
            clock);

    assertThatThrownBy(
            () -> editing.rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("was rewound")
        .hasMessageContaining("before the session's next turn");
    // The same store still full: the turn goes on, the note waits.
    new RewindJournal(transcripts.folder(), full)
        .finish(
            store.sessions().find("vorenus").orElseThrow(), RecordWriter.plain(store.sessions()));
    assertThat(RewindJournal.beside(transcripts).noteOf(sessionId.toString())).exists();

    nextTurnOpens();
    assertOneSessionOf(2);
  }

  @Test
  void aForkOntoAnotherOwnerOfASessionWhoseRewindWasKilledForksTheRewoundSession()
      throws Exception {
    assertThatThrownBy(
            () ->
                killedAt(Step.BEFORE_RECORD)
                    .rewind(sessionId.toString(), new SessionHistoryEditor.Point.LastTurns(1)))
        .isInstanceOf(Crash.class);

    SessionHistoryEditor.Result fork =
        editor.fork(sessionId.toString(), new SessionHistoryEditor.Point.End(), "pullo");

    assertThat(texts(fork.sessionId().toString())).hasSize(4);
    assertThat(
            store
                .conversations()
                .find(UUID.fromString(fork.backendSessionId()))
                .orElseThrow()
                .turns())
        .hasSize(2);
    // vorenus's record is its own lease's to write: its next turn finishes the rewind.
    nextTurnOpens();
    assertOneSessionOf(2);
  }
}
