package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.ContextUse;
import dev.legio.backend.Usage;
import dev.legio.session.CompletedTurn;
import dev.legio.testing.HeldFileLock;
import dev.legio.testing.LogCapture;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptRecorderTest {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-04-03T10:00:00Z");

  private FileTranscriptStore store() {
    return new FileTranscriptStore(dir, dir.resolve("castra-root"), clock);
  }

  private CompletedTurn turn(UUID session, String owner, String sent, String reply) {
    return CompletedTurn.builder(owner, session)
        .sent(sent)
        .reply(reply)
        .model("model-x")
        .usage(Usage.NONE)
        .at(clock.instant())
        .backendKind("offline")
        .build();
  }

  @Test
  void turnsAreChainedInTheSessionsTranscriptAcrossRestarts() {
    UUID session = UUID.randomUUID();
    new TranscriptRecorder(store()).turnCompleted(turn(session, "vorenus", "q1", "a1"));
    TranscriptRecorder same = new TranscriptRecorder(store());
    same.turnCompleted(turn(session, "vorenus", "q2", "a2"));
    same.turnCompleted(turn(session, "vorenus", "q3", "a3"));
    // A restart: a new recorder finds the chain's end in the file.
    new TranscriptRecorder(store()).turnCompleted(turn(session, "vorenus", "q4", "a4"));

    Transcript t = store().load(session.toString());
    assertThat(t.owner()).isEqualTo("vorenus");
    assertThat(t.report().metadata()).as("one agent-name entry").isEqualTo(1);
    assertThat(t.entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("q1", "a1", "q2", "a2", "q3", "a3", "q4", "a4");
    assertThat(t.entries().get(0).parentUuid()).isNull();
    assertChained(t.entries());
    assertThat(t.entries().get(1).message().path("model").asText()).isEqualTo("model-x");
  }

  @Test
  void aCompactionIsWrittenAsASummaryEntryBeforeTheTurnsMessages() {
    UUID session = UUID.randomUUID();
    TranscriptRecorder recorder = new TranscriptRecorder(store());
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    String block = "<context_summary>\nThey scouted &lt;north&gt;.\n</context_summary>";
    CompletedTurn compacted =
        CompletedTurn.builder("vorenus", session)
            .sent("q2")
            .reply("a2")
            .model("model-x")
            .usage(Usage.NONE)
            .at(clock.instant())
            .backendKind("anthropic")
            .compactions(
                List.of(
                    new BackendEvent.CompactionEnded(12, 950, 80, block),
                    new BackendEvent.CompactionEnded(
                        3, 120, 60, "<context_summary>\nx\n</context_summary>")))
            .context(new ContextUse(300, 1000, 0, false))
            .build();
    recorder.turnCompleted(compacted);

    Transcript t = store().load(session.toString());
    assertThat(t.entries())
        .extracting(TranscriptEntry::type)
        .containsExactly("user", "assistant", "summary", "summary", "user", "assistant");
    TranscriptEntry summary = t.entries().get(2);
    assertThat(summary.text()).isEqualTo(block);
    assertThat(summary.messagesCompacted()).isEqualTo(12);
    assertThat(t.entries().get(3).messagesCompacted()).isEqualTo(3);
    assertChained(t.entries());
    assertThat(t.entries().get(4).text()).isEqualTo("q2");
  }

  @Test
  void theAssistantEntryCarriesTheModelAndTheTurnsUsageAsClaudeCodeWritesIt() {
    UUID session = UUID.randomUUID();
    TranscriptRecorder recorder = new TranscriptRecorder(store());
    // Legio's input counts the cache reads and writes; Claude Code's input_tokens does not.
    recorder.turnCompleted(
        CompletedTurn.builder("vorenus", session)
            .fresh(true)
            .sent("q1")
            .reply("a1")
            .model("claude-sonnet-4-5")
            .usage(new Usage(12_000, 300, 5_000, 700, false))
            .at(clock.instant())
            .backendKind("claude-cli")
            .build());
    recorder.turnCompleted(turn(session, "vorenus", "q2", "a2")); // Usage.NONE: no usage

    Transcript t = store().load(session.toString());
    com.fasterxml.jackson.databind.JsonNode message = t.entries().get(1).message();
    assertThat(message.path("model").asText()).isEqualTo("claude-sonnet-4-5");
    com.fasterxml.jackson.databind.JsonNode usage = message.path("usage");
    assertThat(usage.path("input_tokens").asLong()).isEqualTo(6_300);
    assertThat(usage.path("cache_read_input_tokens").asLong()).isEqualTo(5_000);
    assertThat(usage.path("cache_creation_input_tokens").asLong()).isEqualTo(700);
    assertThat(usage.path("output_tokens").asLong()).isEqualTo(300);
    assertThat(t.entries().get(3).message().has("usage")).isFalse();
    // The listing's figure comes from the last answer with a usage: the first turn's.
    TranscriptContext context = store().info(session.toString()).context();
    assertThat(context).isEqualTo(new TranscriptContext("claude-sonnet-4-5", 12_300));
  }

  @Test
  void eachSessionHasItsOwnTranscript() {
    TranscriptRecorder recorder = new TranscriptRecorder(store());
    UUID first = UUID.randomUUID();
    UUID second = UUID.randomUUID();
    recorder.turnCompleted(turn(first, "pullo", "a", "b"));
    recorder.turnCompleted(turn(second, "telegram:42", "c", "d"));
    assertThat(store().list())
        .extracting(TranscriptInfo::sessionId, TranscriptInfo::owner, TranscriptInfo::messages)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(first.toString(), "pullo", 2),
            org.assertj.core.groups.Tuple.tuple(second.toString(), "telegram:42", 2));
  }

  @Test
  void turnsToldTogetherKeepEachSessionsChainAndOrder() {
    UUID first = UUID.randomUUID();
    UUID second = UUID.randomUUID();
    TranscriptRecorder recorder = new TranscriptRecorder(store());
    recorder.turnCompleted(turn(first, "vorenus", "q1", "a1"));
    recorder.turnsCompleted(
        List.of(
            turn(first, "vorenus", "q2", "a2"),
            turn(second, "pullo", "p1", "b1"),
            turn(first, "vorenus", "q3", "a3"),
            turn(second, "pullo", "p2", "b2")));

    for (UUID session : List.of(first, second)) {
      Transcript t = store().load(session.toString());
      assertThat(t.report().metadata()).as("one agent-name entry").isEqualTo(1);
      assertChained(t.entries());
    }
    assertThat(store().load(first.toString()).entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("q1", "a1", "q2", "a2", "q3", "a3");
    assertThat(store().load(second.toString()).entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("p1", "b1", "p2", "b2");
  }

  @Test
  void aTurnAfterARewindChainsToTheLastEntryStillStanding() {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    TranscriptRecorder recorder = new TranscriptRecorder(store());
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    recorder.turnCompleted(turn(session, "vorenus", "q2", "a2"));
    List<TranscriptEntry> before = store().load(id).entries();
    // A rewind of the last turn, as SessionHistoryEditor writes it: tombstones, appended.
    store()
        .append(
            id,
            List.of(
                NewEntry.tombstone(UUID.fromString(before.get(2).uuid())),
                NewEntry.tombstone(UUID.fromString(before.get(3).uuid()))));
    recorder.turnCompleted(turn(session, "vorenus", "q3", "a3"));

    List<TranscriptEntry> after = store().load(id).entries();
    assertThat(after).extracting(TranscriptEntry::text).containsExactly("q1", "a1", "q3", "a3");
    assertThat(after.get(2).parentUuid()).isEqualTo(before.get(1).uuid());
  }

  @Test
  void turnsOfOneSessionRecordedOnTwoNodesFormOneChain() {
    UUID session = UUID.randomUUID();
    // Two nodes: each its own store and recorder over the shared transcripts folder.
    TranscriptRecorder first = new TranscriptRecorder(store());
    TranscriptRecorder second = new TranscriptRecorder(store());
    first.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    second.turnCompleted(turn(session, "vorenus", "q2", "a2"));
    first.turnCompleted(turn(session, "vorenus", "q3", "a3"));
    second.turnCompleted(turn(session, "vorenus", "q4", "a4"));

    Transcript t = store().load(session.toString());
    assertThat(t.report().metadata()).as("one agent-name entry").isEqualTo(1);
    assertThat(t.entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("q1", "a1", "q2", "a2", "q3", "a3", "q4", "a4");
    assertChained(t.entries());
  }

  @Test
  void aTurnWhoseTranscriptAnotherProcessKeepsLockedFreesTheListenerAndIsWrittenWithTheNextTurn()
      throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore store =
        new FileTranscriptStore(
            dir, dir.resolve("castra-root"), clock, java.time.Duration.ofMillis(300));
    TranscriptRecorder recorder = new TranscriptRecorder(store);
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));

    // A Claude Code CLI, or `legio sessions rewind` in another process, holding the lock.
    try (HeldFileLock other = HeldFileLock.hold(store.folder().resolve("." + id + ".lock"));
        LogCapture logs = new LogCapture(TranscriptRecorder.class.getName())) {
      long start = System.nanoTime();
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(20),
          () -> recorder.turnCompleted(turn(session, "vorenus", "q2", "a2")));
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
          .as("the listener's thread is free again after the store's lock wait")
          .isLessThan(java.time.Duration.ofSeconds(10));
      assertThat(store.load(id).entries())
          .extracting(TranscriptEntry::text)
          .containsExactly("q1", "a1");
      assertThat(recorder.kept(id)).as("the turn is kept, not lost").isEqualTo(1);
      assertThat(logs.warningsAndErrors())
          .contains("another process holds the lock of")
          .contains("." + id + ".lock")
          .contains("kept, to be written once the lock is let go")
          .contains("or with the session's next turn");
    }

    recorder.turnCompleted(turn(session, "vorenus", "q3", "a3"));
    List<TranscriptEntry> entries = store.load(id).entries();
    assertThat(entries)
        .extracting(TranscriptEntry::text)
        .containsExactly("q1", "a1", "q2", "a2", "q3", "a3");
    assertChained(entries);
    assertThat(recorder.kept(id)).isZero();
  }

  /** A store whose appends wait 300 ms for another process's lock. */
  private FileTranscriptStore lockWaitingStore() {
    return new FileTranscriptStore(
        dir, dir.resolve("castra-root"), clock, java.time.Duration.ofMillis(300));
  }

  private HeldFileLock holdLockOf(FileTranscriptStore store, String id) throws Exception {
    return HeldFileLock.hold(store.folder().resolve("." + id + ".lock"));
  }

  /** Waits up to 20 s for the transcript to hold {@code texts}, and returns its entries. */
  private static List<TranscriptEntry> awaitEntries(
      FileTranscriptStore store, String id, String... texts) throws InterruptedException {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
    List<TranscriptEntry> entries = store.load(id).entries();
    while (entries.size() < texts.length && System.nanoTime() < deadline) {
      Thread.sleep(50);
      entries = store.load(id).entries();
    }
    assertThat(entries).extracting(TranscriptEntry::text).containsExactly(texts);
    return entries;
  }

  @Test
  void keptTurnsAreWrittenOnceTheLockIsLetGoWithoutTheSessionsNextTurn() throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore store = lockWaitingStore();
    TranscriptRecorder recorder = new TranscriptRecorder(store); // the default back-off: 1 s
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    try (LogCapture logs = new LogCapture(TranscriptRecorder.class.getName())) {
      try (HeldFileLock other = holdLockOf(store, id)) {
        recorder.turnCompleted(turn(session, "vorenus", "q2", "a2"));
        recorder.turnCompleted(turn(session, "vorenus", "q3", "a3"));
        assertThat(recorder.kept(id)).isEqualTo(2);
      }
      // No further turn of the session: the recorder writes them on its own.
      List<TranscriptEntry> entries = awaitEntries(store, id, "q1", "a1", "q2", "a2", "q3", "a3");
      assertChained(entries);
      assertThat(recorder.kept(id)).isZero();
      assertThat(logs.text()).contains("the 2 turns kept while another process held");
    }
  }

  @Test
  void aTurnToldWhileKeptTurnsAreBeingWrittenAgainIsWrittenAfterThemWithoutWaiting()
      throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore files = lockWaitingStore();
    PausingTranscriptStore store = new PausingTranscriptStore(files);
    TranscriptRecorder recorder =
        new TranscriptRecorder(
            store,
            new KeptTurnsPolicy(
                1_000, java.time.Duration.ofMillis(50), java.time.Duration.ofMillis(200)));
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    try (HeldFileLock other = holdLockOf(files, id)) {
      recorder.turnCompleted(turn(session, "vorenus", "q2", "a2"));
      assertThat(recorder.kept(id)).isEqualTo(1);
      store.pauseNextAppend();
    }
    // The retry holds the transcript's lock, between reading the tip and writing q2: a turn now.
    assertThat(store.paused.await(20, java.util.concurrent.TimeUnit.SECONDS))
        .as("the kept turn is written again")
        .isTrue();
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(2),
        () -> recorder.turnCompleted(turn(session, "vorenus", "q3", "a3")),
        "the listener does not wait for the write in flight");
    store.resume.countDown();

    List<TranscriptEntry> entries = awaitEntries(files, id, "q1", "a1", "q2", "a2", "q3", "a3");
    assertChained(entries);
    recorder.turnCompleted(turn(session, "vorenus", "q4", "a4"));
    assertChained(awaitEntries(files, id, "q1", "a1", "q2", "a2", "q3", "a3", "q4", "a4"));
  }

  @Test
  void aTurnToldWhileTheListenersWriteRunsIsWrittenByThatWriteNotLeftForARetry() throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore files = lockWaitingStore();
    PausingTranscriptStore store = new PausingTranscriptStore(files);
    TranscriptRecorder recorder = new TranscriptRecorder(store, neverRetried(1_000));
    store.pauseNextAppend();
    Thread first =
        Thread.ofVirtual()
            .start(() -> recorder.turnCompleted(turn(session, "vorenus", "q1", "a1")));
    assertThat(store.paused.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    recorder.turnCompleted(turn(session, "vorenus", "q2", "a2")); // kept behind q1's write
    assertThat(recorder.kept(id)).isEqualTo(1);

    store.resume.countDown();
    first.join(java.time.Duration.ofSeconds(20));

    assertThat(recorder.kept(id)).as("no retry will come: q1's write took q2 along").isZero();
    List<TranscriptEntry> entries = files.load(id).entries();
    assertThat(entries).extracting(TranscriptEntry::text).containsExactly("q1", "a1", "q2", "a2");
    assertChained(entries);
    recorder.close();
  }

  @Test
  void closeWritesTheKeptTurnsWhenTheLockIsFree() throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore store = lockWaitingStore();
    TranscriptRecorder recorder = new TranscriptRecorder(store, neverRetried(1_000));
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    try (HeldFileLock other = holdLockOf(store, id)) {
      recorder.turnCompleted(turn(session, "vorenus", "q2", "a2"));
    }
    try (LogCapture logs = new LogCapture(TranscriptRecorder.class.getName())) {
      recorder.close();
      assertThat(logs.warningsAndErrors()).isEmpty();
    }
    List<TranscriptEntry> entries = store.load(id).entries();
    assertThat(entries).extracting(TranscriptEntry::text).containsExactly("q1", "a1", "q2", "a2");
    assertChained(entries);
  }

  @Test
  void closeLogsTheKeptTurnsItCouldNotWriteNamingTheSessionAndCountingThem() throws Exception {
    UUID session = UUID.randomUUID();
    UUID free = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore store = lockWaitingStore();
    TranscriptRecorder recorder = new TranscriptRecorder(store, neverRetried(1_000));
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    try (HeldFileLock other = holdLockOf(store, id);
        LogCapture logs = new LogCapture(TranscriptRecorder.class.getName())) {
      recorder.turnsCompleted(
          List.of(
              turn(session, "vorenus", "q2", "a2"),
              turn(free, "pullo", "p1", "b1"),
              turn(session, "vorenus", "q3", "a3")));
      long start = System.nanoTime();
      recorder.close();
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
          .as("one last attempt, bounded by the store's lock wait")
          .isLessThan(java.time.Duration.ofSeconds(5));
      assertThat(logs.warningsAndErrors())
          .contains("2 turns of session " + id + " were not written to its transcript and are lost")
          .contains("." + id + ".lock")
          .doesNotContain(free.toString());
    }
    assertThat(store.load(id).entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("q1", "a1");
    assertThat(store.load(free.toString()).entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("p1", "b1");
  }

  @Test
  void aTurnToldAfterCloseIsWrittenWhenTheLockIsFreeElseLoggedAsLostAtOnce() throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore store = lockWaitingStore();
    TranscriptRecorder recorder = new TranscriptRecorder(store, neverRetried(1_000));
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    recorder.close();

    recorder.turnCompleted(turn(session, "vorenus", "q2", "a2"));
    try (HeldFileLock other = holdLockOf(store, id);
        LogCapture logs = new LogCapture(TranscriptRecorder.class.getName())) {
      recorder.turnCompleted(turn(session, "vorenus", "q3", "a3"));
      assertThat(recorder.kept(id)).as("no attempt follows close: nothing is kept").isZero();
      assertThat(logs.warningsAndErrors())
          .contains(
              "1 turns of session "
                  + id
                  + " were not written to its transcript and are lost: another process held its"
                  + " lock after Legio stopped recording transcripts")
          .contains("." + id + ".lock")
          .doesNotContain("to be written once the lock is let go");
    }
    List<TranscriptEntry> entries = store.load(id).entries();
    assertThat(entries).extracting(TranscriptEntry::text).containsExactly("q1", "a1", "q2", "a2");
    assertChained(entries);
  }

  @Test
  void pastTheLimitTheOldestKeptTurnsAreDroppedAndLogged() throws Exception {
    UUID session = UUID.randomUUID();
    String id = session.toString();
    FileTranscriptStore store = lockWaitingStore();
    TranscriptRecorder recorder = new TranscriptRecorder(store, neverRetried(3));
    recorder.turnCompleted(turn(session, "vorenus", "q1", "a1"));
    try (HeldFileLock other = holdLockOf(store, id);
        LogCapture logs = new LogCapture(TranscriptRecorder.class.getName())) {
      recorder.turnsCompleted(
          List.of(
              turn(session, "vorenus", "q2", "a2"),
              turn(session, "vorenus", "q3", "a3"),
              turn(session, "vorenus", "q4", "a4")));
      assertThat(logs.warningsAndErrors()).doesNotContain("dropped");
      recorder.turnsCompleted(
          List.of(turn(session, "vorenus", "q5", "a5"), turn(session, "vorenus", "q6", "a6")));
      assertThat(recorder.kept(id)).isEqualTo(3);
      assertThat(logs.warningsAndErrors())
          .contains(
              "2 turns were dropped from the transcript of session "
                  + id
                  + " unwritten: more than 3 waited");
    }
    recorder.turnCompleted(turn(session, "vorenus", "q7", "a7"));
    List<TranscriptEntry> entries = store.load(id).entries();
    assertThat(entries)
        .extracting(TranscriptEntry::text)
        .containsExactly("q1", "a1", "q4", "a4", "q5", "a5", "q6", "a6", "q7", "a7");
    assertChained(entries);
    recorder.close();
  }

  @Test
  void aPolicyOutOfBoundsIsRefusedSayingWhatItMustBe() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> neverRetried(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxKept must be at least 1");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new KeptTurnsPolicy(
                    10, java.time.Duration.ofSeconds(2), java.time.Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longestRetry must be at least firstRetry");
    KeptTurnsPolicy policy = KeptTurnsPolicy.DEFAULT;
    assertThat(policy.after(java.time.Duration.ofSeconds(1))).hasSeconds(2);
    assertThat(policy.after(java.time.Duration.ofSeconds(40))).hasSeconds(60);
  }

  /** Keeps up to {@code max} turns and writes them again only after an hour (or at close). */
  private static KeptTurnsPolicy neverRetried(int max) {
    return new KeptTurnsPolicy(max, java.time.Duration.ofHours(1), java.time.Duration.ofHours(1));
  }

  /** Each entry names the one before it as its parent. */
  private static void assertChained(List<TranscriptEntry> entries) {
    for (int i = 1; i < entries.size(); i++) {
      assertThat(entries.get(i).parentUuid())
          .as("entry %d", i)
          .isEqualTo(entries.get(i - 1).uuid());
    }
  }
}
