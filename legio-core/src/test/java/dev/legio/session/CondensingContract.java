package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.ContextUse;
import dev.legio.backend.SessionSpec;
import dev.legio.config.SessionSettings;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Condensing long Claude Code CLI sessions ({@link SessionCondenser}, {@link CondensePolicy}) in
 * the engine, on a real store: a back-end that reports the kind {@code claude-cli} and a brief
 * writer that answers at once. Subclasses choose the store (SQLite, PostgreSQL). The real CLI's
 * version of the same is {@code ClaudeCliCondenseTest}.
 */
abstract class CondensingContract {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-11-23T09:00:00Z");
  LegioStore store;
  final List<SessionEngine> engines = new ArrayList<>();
  final ScriptedBackend.Conversations conversations = new ScriptedBackend.Conversations();
  final ScriptedBackend backend = ScriptedBackend.resuming(conversations);

  /** The conversation size the back-end reports after each turn. */
  final AtomicLong contextTokens = new AtomicLong(1_500);

  /** The records the brief writer was asked about. */
  final List<SessionRecord> briefed = new CopyOnWriteArrayList<>();

  volatile String brief = "The scout found the north road clear & the bridge <down>.";
  volatile RuntimeException briefFailure;
  final List<String> condensings = new CopyOnWriteArrayList<>();

  abstract LegioStore openStore(Path dir, MutableClock clock);

  @BeforeEach
  void setUp() throws Exception {
    WorkspaceInitializer.initialise(new Workspace(dir));
    store = openStore(dir, clock);
    backend.kind = "claude-cli";
    backend.context = turn -> ContextUse.of(contextTokens.get(), 200_000);
  }

  @AfterEach
  void tearDown() {
    engines.forEach(SessionEngine::close);
    if (store != null) {
      store.close();
    }
  }

  SessionEngine engine(long condenseAfterTokens) {
    BriefWriter writer =
        (record, shape) -> {
          briefed.add(record);
          if (briefFailure != null) {
            throw briefFailure;
          }
          return Optional.ofNullable(brief);
        };
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults().withCondenseAfterTokens(condenseAfterTokens))
            .clock(clock)
            .briefWriter(writer)
            .build();
    engine.setSessionEventListener(
        new SessionEventListener() {
          @Override
          public void condensed(String owner, String previousId, String newId, long tokens) {
            condensings.add(owner + " " + previousId + " -> " + newId + " at " + tokens);
          }
        });
    engines.add(engine);
    return engine;
  }

  SessionRecord record() {
    return store.sessions().find("vorenus").orElseThrow();
  }

  boolean say(SessionEngine engine, String text) {
    return engine.handle(text, DispatchListener.NONE).ok();
  }

  @Test
  void aSessionPastTheThresholdGoesOnInANewBackEndSessionStartedFromABrief() {
    SessionEngine engine = engine(1_000);
    assertThat(say(engine, "@vorenus Scout the north road")).isTrue();
    SessionRecord first = record();
    String oldId = first.backendSessionId();
    assertThat(first.context().tokens()).isEqualTo(1_500);
    assertThat(first.previousBackendSessionIds()).isEmpty();
    assertThat(briefed).isEmpty();

    contextTokens.set(400);
    assertThat(say(engine, "@vorenus And the bridge?")).isTrue();

    // The brief was written of the old conversation, by the session's own back-end and model.
    assertThat(briefed)
        .singleElement()
        .satisfies(r -> assertThat(r.backendSessionId()).isEqualTo(oldId));
    // A new back-end session was opened (no resume) and the turn went to it, brief first.
    assertThat(backend.opened).hasSize(2);
    SessionSpec second = backend.opened.get(1);
    assertThat(second.resumeId()).isNull();
    ScriptedBackend.Turn turn = backend.turnsOf("vorenus").get(1);
    assertThat(turn.sessionId()).isNotEqualTo(oldId);
    assertThat(turn.message())
        .startsWith(
            "<context_summary>\nThe scout found the north road clear &amp; the bridge"
                + " &lt;down&gt;.\n</context_summary>\n\n")
        .endsWith("And the bridge?");
    assertThat(conversations.byId().get(oldId)).hasSize(1);

    // The record: same session, the new back-end id, the old one kept, the counts restarted.
    SessionRecord condensed = record();
    assertThat(condensed.sessionId()).isEqualTo(first.sessionId());
    assertThat(condensed.backendSessionId()).isEqualTo(turn.sessionId());
    assertThat(condensed.previousBackendSessionIds()).containsExactly(oldId);
    assertThat(condensed.inputTokens()).isEqualTo(backend.inputTokensPerTurn);
    assertThat(condensed.outputTokens()).isEqualTo(5);
    assertThat(condensed.messageCount()).isEqualTo(2);
    assertThat(condensed.context().tokens()).isEqualTo(400);
    assertThat(condensed.rebuilds()).isZero();
    assertThat(condensings)
        .containsExactly("vorenus " + oldId + " -> " + turn.sessionId() + " at 1500");
    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .extracting(s -> s.record().previousBackendSessionIds())
        .containsExactly(List.of(oldId));
  }

  @Test
  void aRestartResumesTheCondensedSessionAndALaterCondensingKeepsEveryEarlierId() {
    SessionEngine engine = engine(1_000);
    say(engine, "@vorenus one");
    String a = record().backendSessionId();
    contextTokens.set(200);
    say(engine, "@vorenus two");
    String b = record().backendSessionId();
    engine.close();

    // Another process (or a restart) resumes the new conversation; nothing is condensed again.
    SessionEngine restarted = engine(1_000);
    assertThat(say(restarted, "@vorenus three")).isTrue();
    assertThat(backend.opened.getLast().resumeId()).isEqualTo(b);
    assertThat(record().backendSessionId()).isEqualTo(b);
    assertThat(record().previousBackendSessionIds()).containsExactly(a);
    assertThat(briefed).hasSize(1);

    contextTokens.set(5_000);
    say(restarted, "@vorenus four");
    say(restarted, "@vorenus five");
    assertThat(briefed).hasSize(2);
    assertThat(briefed.get(1).backendSessionId()).isEqualTo(b);
    assertThat(record().previousBackendSessionIds()).containsExactly(a, b);
    assertThat(record().backendSessionId()).isNotIn(a, b);
  }

  @Test
  void atTheThresholdOrWithCondensingOffOrOnAnotherBackEndNothingIsCondensed() {
    contextTokens.set(1_000);
    SessionEngine engine = engine(1_000);
    say(engine, "@vorenus one");
    say(engine, "@vorenus two"); // exactly the threshold is still within it
    assertThat(briefed).isEmpty();
    engine.close();

    contextTokens.set(900_000);
    SessionEngine off = engine(0);
    say(off, "@vorenus three");
    say(off, "@vorenus four");
    assertThat(briefed).isEmpty();
    off.close();

    backend.kind = "anthropic"; // HTTP back-ends compact their own conversations
    SessionEngine http = engine(1_000);
    say(http, "@pullo one");
    say(http, "@pullo two");
    assertThat(briefed).isEmpty();
    assertThat(store.sessions().find("pullo").orElseThrow().previousBackendSessionIds()).isEmpty();
    assertThat(record().previousBackendSessionIds()).isEmpty();
  }

  @Test
  void aBriefThatCannotBeWrittenLeavesTheSessionAsItWasAndIsTriedAgainNextTurn() {
    SessionEngine engine = engine(1_000);
    say(engine, "@vorenus one");
    String a = record().backendSessionId();
    briefFailure = new dev.legio.backend.BackendException("the model is overloaded");
    assertThat(say(engine, "@vorenus two")).isTrue();
    assertThat(record().backendSessionId()).isEqualTo(a);
    assertThat(record().previousBackendSessionIds()).isEmpty();
    assertThat(backend.turnsOf("vorenus").get(1).message()).doesNotContain("<context_summary>");

    briefFailure = null;
    brief = null; // no transcript: no brief either
    assertThat(say(engine, "@vorenus three")).isTrue();
    assertThat(record().backendSessionId()).isEqualTo(a);

    brief = "Brief.";
    assertThat(say(engine, "@vorenus four")).isTrue();
    assertThat(briefed).hasSize(3);
    assertThat(record().previousBackendSessionIds()).containsExactly(a);
  }

  @Test
  void aCliSessionThatIsCondensedIsNotRebuiltForItsCumulativeTokens() {
    backend.inputTokensPerTurn = 200_000; // past max_input_tokens (150,000) after one turn
    contextTokens.set(20_000); // but the conversation stays small
    SessionEngine engine = engine(50_000);
    say(engine, "@vorenus one");
    say(engine, "@vorenus two");
    say(engine, "@vorenus three");
    assertThat(backend.opened).hasSize(1);
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.TOKEN_LIMIT, 0L);
    assertThat(record().messageCount()).isEqualTo(3);
    engine.close();

    // With condensing off, the token limit rebuilds it as before.
    SessionEngine off = engine(0);
    say(off, "@vorenus four");
    assertThat(off.rebuildCounts()).containsEntry(RebuildReason.TOKEN_LIMIT, 1L);
  }

  @Test
  void withoutABriefWriterNothingCondensesSoTheTokenLimitStillRebuilds() {
    backend.inputTokensPerTurn = 200_000; // past max_input_tokens (150,000) after one turn
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults().withCondenseAfterTokens(50_000))
            .clock(clock)
            .build(); // no brief writer
    engines.add(engine);
    say(engine, "@vorenus one");
    say(engine, "@vorenus two");
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.TOKEN_LIMIT, 1L);
    assertThat(backend.opened).hasSize(2);
  }
}
