package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.agents.AgentDirectory;
import dev.legio.config.SessionSettings;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row of the session store that Legio cannot read as a record (a hand edit, a damaged file) hides
 * no other session, and its owner's next turn, or a reset, replaces it ({@link SessionListing},
 * {@link SessionLifecycle}). Subclasses choose the store (SQLite, PostgreSQL).
 */
abstract class DamagedSessionRowContract {
  private static final String PROMPT_HASH =
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c";

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-11-28T09:00:00Z");
  LegioStore store;
  SessionEngine engine;
  final ScriptedBackend backend = ScriptedBackend.forgetful();

  abstract LegioStore openStore(Path dir, MutableClock clock);

  /** Runs {@code sql} on the store's database as another program would, CHECKs not enforced. */
  abstract void handEdit(String sql);

  @BeforeEach
  void setUp() throws Exception {
    WorkspaceInitializer.initialise(new Workspace(dir));
    store = openStore(dir, clock);
    engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults())
            .clock(clock)
            .build();
  }

  @AfterEach
  void tearDown() {
    if (engine != null) {
      engine.close();
    }
    if (store != null) {
      store.close();
    }
  }

  private SessionStore sessions() {
    return store.sessions();
  }

  private SessionRecord record(String owner) {
    Instant now = clock.instant();
    return new SessionRecord(
        owner,
        UUID.randomUUID(),
        "scripted",
        null,
        PROMPT_HASH,
        null,
        0,
        0,
        0,
        0,
        now,
        now,
        now.plus(Duration.ofDays(1)),
        SessionRecord.State.ACTIVE,
        null,
        2);
  }

  @Test
  void aDamagedRowHidesNoOtherRecordAndIsNamedWithWhatIsWrongAndWhatToDo() {
    for (String owner : new String[] {"legatus", "pullo", "telegram:1", "telegram:2", "vorenus"}) {
      sessions().save(record(owner));
    }
    UUID pullos = sessions().find("pullo").orElseThrow().sessionId();
    handEdit("UPDATE sessions SET previous_backend_session_ids = 'oops' WHERE owner = 'pullo'");
    handEdit("UPDATE sessions SET state = 'paused' WHERE owner = 'telegram:1'");
    handEdit("UPDATE sessions SET context_tokens = -5 WHERE owner = 'telegram:2'");

    assertThat(sessions().list())
        .extracting(SessionRecord::owner)
        .containsExactly("legatus", "vorenus");
    SessionListing listing = sessions().listing();
    assertThat(listing.records()).extracting(SessionRecord::owner).contains("legatus", "vorenus");
    assertThat(listing.damaged())
        .extracting(DamagedSession::owner)
        .containsExactly("pullo", "telegram:1", "telegram:2");
    DamagedSession pullo = listing.damaged().get(0);
    assertThat(pullo.sessionId()).isEqualTo(pullos.toString());
    assertThat(pullo.rebuilds()).isEqualTo(2);
    assertThat(pullo.problem())
        .startsWith("previous_backend_session_ids 'oops' is not a JSON array of strings (");
    assertThat(listing.damaged().get(1).problem())
        .isEqualTo("state 'paused' is neither 'active' nor 'closed'");
    assertThat(listing.damaged().get(2).problem())
        .isEqualTo("context_tokens '-5' cannot be read (context use cannot be negative)");

    assertThatThrownBy(() -> sessions().find("pullo"))
        .isInstanceOf(DamagedSessionException.class)
        .hasMessageStartingWith("the session record of 'pullo' (session " + pullos + ") in the ")
        .hasMessageContaining("database is damaged: previous_backend_session_ids 'oops'")
        .hasMessageContaining("`legio reset pullo` clears the row now")
        .hasMessageEndingWith("DELETE FROM sessions WHERE owner = 'pullo'");
    assertThat(sessions().find("vorenus")).isPresent();

    // Saving replaces the damaged row as any row.
    sessions().save(record("pullo"));
    assertThat(sessions().listing().damaged())
        .extracting(DamagedSession::owner)
        .containsExactly("telegram:1", "telegram:2");
  }

  @Test
  void theStatusListsEveryAgentAndNamesTheDamagedRow() {
    assertThat(engine.handle("@vorenus @pullo first", DispatchListener.NONE).ok()).isTrue();
    handEdit("UPDATE sessions SET state = 'unknown' WHERE owner = 'pullo'");

    StatusReport report = engine.status(ChannelListing.DEFAULT);

    assertThat(report.listed())
        .extracting(SessionStatus::owner)
        .contains("legatus", "vorenus", "pullo");
    assertThat(report.listed())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .singleElement()
        .satisfies(s -> assertThat(s.record()).isNotNull());
    assertThat(report.listed())
        .filteredOn(s -> s.owner().equals("pullo"))
        .singleElement()
        .satisfies(s -> assertThat(s.record()).isNull());
    assertThat(report.damagedSessions())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.owner()).isEqualTo("pullo");
              assertThat(d.problem()).isEqualTo("state 'unknown' is neither 'active' nor 'closed'");
            });
  }

  @Test
  void theNextTurnOfADamagedSessionStartsANewOneInItsPlace() {
    assertThat(engine.handle("@pullo first", DispatchListener.NONE).ok()).isTrue();
    SessionRecord before = sessions().find("pullo").orElseThrow();
    handEdit(
        "UPDATE sessions SET previous_backend_session_ids = '{\"a\": 1}', rebuilds = 4"
            + " WHERE owner = 'pullo'");

    assertThat(engine.handle("@pullo again", DispatchListener.NONE).ok()).isTrue();

    SessionRecord after = sessions().find("pullo").orElseThrow();
    assertThat(after.sessionId()).isNotEqualTo(before.sessionId());
    assertThat(after.active()).isTrue();
    assertThat(after.messageCount()).isEqualTo(1);
    assertThat(after.rebuilds()).isEqualTo(5);
    assertThat(engine.rebuildCounts().get(RebuildReason.DAMAGED_RECORD)).isEqualTo(1);
    assertThat(sessions().listing().damaged()).isEmpty();
    assertThat(backend.turnsOf("pullo")).hasSize(2);
    assertThat(backend.turnsOf("pullo").get(1).message()).contains("first"); // history carried
  }

  @Test
  void aResetOfADamagedSessionDeletesItsRow() {
    assertThat(engine.handle("@vorenus @pullo first", DispatchListener.NONE).ok()).isTrue();
    handEdit("UPDATE sessions SET state = 'paused' WHERE owner = 'pullo'");

    assertThat(engine.reset("pullo")).isTrue();

    assertThat(sessions().listing().damaged()).isEmpty();
    assertThat(sessions().find("pullo")).isEmpty();
    assertThat(sessions().find("vorenus")).isPresent();
    assertThat(engine.rebuildCounts().get(RebuildReason.RESET)).isEqualTo(1);
  }

  @Test
  void deleteWhileLeasedDeletesOnlyWhileTheHolderHoldsTheLease() {
    sessions().save(record("pullo"));
    assertThatThrownBy(() -> sessions().deleteWhileLeased("pullo", "node-a"))
        .isInstanceOf(LeaseLostException.class);
    assertThat(sessions().find("pullo")).isPresent();

    assertThat(sessions().tryLease("pullo", "node-b", clock.instant(), Duration.ofMinutes(1)))
        .isTrue();
    assertThatThrownBy(() -> sessions().deleteWhileLeased("pullo", "node-a"))
        .isInstanceOf(LeaseLostException.class);
    assertThat(sessions().find("pullo")).isPresent();

    sessions().deleteWhileLeased("pullo", "node-b");
    assertThat(sessions().find("pullo")).isEmpty();
  }
}
