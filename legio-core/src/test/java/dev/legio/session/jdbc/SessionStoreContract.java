package dev.legio.session.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.ContextUse;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import dev.legio.log.Timestamps;
import dev.legio.session.HeldLeases;
import dev.legio.session.LeaseHolder;
import dev.legio.session.LeaseLostException;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStore;
import dev.legio.session.SessionStoreException;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link SessionStore} must have (the rules in its Javadoc). Each database's
 * test class extends this and says how to open a {@link LegioStore} on its database.
 */
public abstract class SessionStoreContract {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Duration MICRO = Duration.ofNanos(1_000);
  private static final String PROMPT_HASH =
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  private static final String ROSTER_HASH =
      "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";

  protected final MutableClock clock = MutableClock.at("2026-02-15T12:00:00.123456Z");
  private final List<LegioStore> opened = new ArrayList<>();
  protected SessionStore sessions;

  /**
   * Opens a store on the database under test. Every call within one test opens the same database
   * anew, with pools of its own, as another Legio process would.
   */
  protected abstract LegioStore open(MutableClock clock);

  /** Runs after every store of the test is closed (to drop a test schema, say). */
  protected void afterStoresClosed() {}

  /**
   * An empty database of its own, for a migration test.
   *
   * @param dialect the folder of its migrations under {@code db/migration}
   * @param url its JDBC URL
   * @param versionBeforeContext the last schema version before the sessions' context columns
   * @param open opens a store on it (which migrates it the rest of the way)
   */
  protected record EmptyDatabase(
      String dialect, String url, String versionBeforeContext, Supplier<LegioStore> open) {}

  /**
   * A fresh empty database beside the test's own (dropped with it by {@link #afterStoresClosed}).
   */
  protected abstract EmptyDatabase emptyDatabase();

  @BeforeEach
  void openStore() {
    sessions = openAnother().sessions();
  }

  @AfterEach
  void closeStores() {
    try {
      for (LegioStore store : opened) {
        store.close();
      }
    } finally {
      afterStoresClosed();
    }
  }

  protected LegioStore openAnother() {
    LegioStore store = open(clock);
    opened.add(store);
    return store;
  }

  private SessionRecord record(String owner, Instant expiresAt) {
    Instant now = clock.instant();
    return new SessionRecord(
        owner,
        UUID.randomUUID(),
        "claude-cli",
        null,
        PROMPT_HASH,
        null,
        0,
        0,
        0,
        0,
        now,
        now,
        expiresAt,
        SessionRecord.State.ACTIVE,
        null,
        0);
  }

  // ---------------------------------------------------------------- records

  @Test
  void findReturnsEveryFieldAsSavedToTheMicrosecond() {
    SessionRecord saved =
        new SessionRecord(
            "legatus",
            UUID.fromString("0192f4c8-7b1e-7cc3-9a51-3c8e2f6d4b10"),
            "claude-cli",
            "5f1c7e2a-backend-conversation",
            PROMPT_HASH,
            ROSTER_HASH,
            Long.MAX_VALUE,
            123_456_789_012L,
            77,
            9_007_199_254_740_993L, // above 2^53: a double would lose it
            Instant.parse("2026-02-15T11:59:59.000001Z"),
            Instant.parse("2026-02-15T12:00:00.999999Z"),
            Instant.parse("9999-12-31T23:59:59.999999Z"),
            SessionRecord.State.CLOSED,
            "PROMPT_CHANGED",
            12,
            new ContextUse(Long.MAX_VALUE - 1, 9_007_199_254_740_993L, 3, true));

    sessions.save(saved);

    assertThat(sessions.find("legatus")).contains(saved);
  }

  @Test
  void nullableFieldsRoundTripAsNull() {
    SessionRecord saved = record("vorenus", clock.instant().plusSeconds(3600));

    sessions.save(saved);

    SessionRecord found = sessions.find("vorenus").orElseThrow();
    assertThat(found).isEqualTo(saved);
    assertThat(found.backendSessionId()).isNull();
    assertThat(found.rosterHash()).isNull();
    assertThat(found.closeReason()).isNull();
    assertThat(found.context()).isNull();
    assertThat(found.active()).isTrue();
  }

  @Test
  void contextFiguresRoundTripAndAreReplacedByTheNextTurnsFigures() {
    SessionRecord first =
        record("vorenus", clock.instant().plusSeconds(60))
            .withContext(new ContextUse(184_000, 200_000, 1, false));
    sessions.save(first);
    assertThat(sessions.find("vorenus").orElseThrow().context())
        .isEqualTo(new ContextUse(184_000, 200_000, 1, false));

    SessionRecord second = first.withContext(new ContextUse(0, 8_192, 0, false));
    sessions.save(second);
    assertThat(sessions.find("vorenus").orElseThrow().context())
        .isEqualTo(new ContextUse(0, 8_192, 0, false));
    assertThat(sessions.list()).containsExactly(second);

    // A record without figures (a rebuilt session) clears them.
    SessionRecord rebuilt = record("vorenus", clock.instant().plusSeconds(60));
    sessions.save(rebuilt);
    assertThat(sessions.find("vorenus").orElseThrow().context()).isNull();
  }

  @Test
  void anExistingDatabaseIsMigratedKeepingItsSessionsWithoutContextFigures() throws Exception {
    EmptyDatabase old = emptyDatabase();
    Flyway.configure()
        .dataSource(old.url(), null, null)
        .locations("classpath:db/migration/" + old.dialect())
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .target(old.versionBeforeContext())
        .load()
        .migrate();
    UUID id = UUID.fromString("0192f4c8-7b1e-7cc3-9a51-3c8e2f6d4b10");
    String created = Timestamps.format(Instant.parse("2026-02-15T11:59:59.000001Z"));
    String expires = Timestamps.format(Instant.parse("2026-03-15T12:00:00Z"));
    try (Connection connection = DriverManager.getConnection(old.url());
        Statement statement = connection.createStatement()) {
      // The row as the schema before the context columns held it.
      statement.executeUpdate(
          "INSERT INTO sessions (owner, session_id, backend, backend_session_id, prompt_hash,"
              + " roster_hash, input_tokens, output_tokens, message_count, last_injected_seq,"
              + " created_at, last_active_at, expires_at, state, close_reason, rebuilds) VALUES"
              + " ('legatus', '"
              + id
              + "', 'claude-cli', 'conv-1', '"
              + PROMPT_HASH
              + "', NULL, 1234, 56, 7, 89, '"
              + created
              + "', '"
              + created
              + "', '"
              + expires
              + "', 'active', NULL, 2)");
    }

    LegioStore migrated = old.open().get();
    opened.add(migrated);

    SessionRecord found = migrated.sessions().find("legatus").orElseThrow();
    assertThat(found)
        .isEqualTo(
            new SessionRecord(
                "legatus",
                id,
                "claude-cli",
                "conv-1",
                PROMPT_HASH,
                null,
                1234,
                56,
                7,
                89,
                Instant.parse(created),
                Instant.parse(created),
                Instant.parse(expires),
                SessionRecord.State.ACTIVE,
                null,
                2));
    assertThat(found.context()).isNull();
    SessionRecord withContext = found.withContext(new ContextUse(90_000, 200_000, 0, false));
    migrated.sessions().save(withContext);
    assertThat(migrated.sessions().find("legatus")).contains(withContext);
  }

  @Test
  void previousBackEndIdsRoundTripInOrderAndACondensedRecordRestartsItsCounts() {
    SessionRecord plain =
        record("vorenus", clock.instant().plusSeconds(3600))
            .withBackendSessionId("conv-a")
            .afterTurn(60_000, 900, 12, clock.instant(), clock.instant().plusSeconds(3600))
            .withContext(ContextUse.of(61_000, 200_000));
    sessions.save(plain);
    assertThat(sessions.find("vorenus").orElseThrow().previousBackendSessionIds()).isEmpty();

    SessionRecord once = plain.condensed("conv-b");
    SessionRecord twice =
        once.afterTurn(70_000, 10, 13, clock.instant(), clock.instant().plusSeconds(3600))
            .condensed("conv \"c\", with, commas");
    sessions.save(twice);

    SessionRecord found = sessions.find("vorenus").orElseThrow();
    assertThat(found).isEqualTo(twice);
    assertThat(found.previousBackendSessionIds()).containsExactly("conv-a", "conv-b");
    assertThat(found.backendSessionId()).isEqualTo("conv \"c\", with, commas");
    assertThat(found.sessionId()).isEqualTo(plain.sessionId());
    assertThat(found.inputTokens()).isZero();
    assertThat(found.outputTokens()).isZero();
    assertThat(found.context()).isNull();
    assertThat(found.messageCount()).isEqualTo(2);
    assertThat(found.lastInjectedSequence()).isEqualTo(13);
    assertThat(sessions.list()).containsExactly(found);
  }

  @Test
  void aDatabaseFromBeforeCondensingKeepsItsSessionsAndItsLedgersOutcomesAsOkAndError()
      throws Exception {
    EmptyDatabase old = emptyDatabase();
    // The last versions before previous_backend_session_ids and the four turn outcomes.
    String before = old.dialect().equals("sqlite") ? "9" : "8";
    Flyway.configure()
        .dataSource(old.url(), null, null)
        .locations("classpath:db/migration/" + old.dialect())
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .target(before)
        .load()
        .migrate();
    UUID id = UUID.fromString("0192f4c8-7b1e-7cc3-9a51-3c8e2f6d4b10");
    String at = Timestamps.format(Instant.parse("2026-11-20T10:00:00Z"));
    try (Connection connection = DriverManager.getConnection(old.url());
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "INSERT INTO sessions (owner, session_id, backend, backend_session_id, prompt_hash,"
              + " roster_hash, input_tokens, output_tokens, message_count, last_injected_seq,"
              + " created_at, last_active_at, expires_at, state, close_reason, rebuilds) VALUES"
              + " ('vorenus', '"
              + id
              + "', 'claude-cli', 'conv-1', '"
              + PROMPT_HASH
              + "', NULL, 10, 5, 1, 3, '"
              + at
              + "', '"
              + at
              + "', '"
              + at
              + "', 'active', NULL, 0)");
      for (String outcome : List.of("completed", "failed")) {
        statement.executeUpdate(
            "INSERT INTO usage_ledger (at, session_id, owner, backend, input_tokens,"
                + " output_tokens, cache_read_tokens, cache_write_tokens, cost_source, outcome)"
                + " VALUES ('"
                + at
                + "', '"
                + id
                + "', 'vorenus', 'claude-cli', 10, 5, 0, 0, 'unknown', '"
                + outcome
                + "')");
      }
    }

    LegioStore migrated = old.open().get();
    opened.add(migrated);

    SessionRecord found = migrated.sessions().find("vorenus").orElseThrow();
    assertThat(found.backendSessionId()).isEqualTo("conv-1");
    assertThat(found.previousBackendSessionIds()).isEmpty();
    migrated.sessions().save(found.condensed("conv-2"));
    assertThat(migrated.sessions().find("vorenus").orElseThrow().previousBackendSessionIds())
        .containsExactly("conv-1");
    assertThat(migrated.usage().entries(Instant.EPOCH, 10))
        .extracting(dev.legio.usage.LedgerEntry::outcome)
        .containsExactly(dev.legio.usage.TurnOutcome.OK, dev.legio.usage.TurnOutcome.ERROR);
  }

  @Test
  void timestampsAreKeptToTheMicrosecondAndTheRestIsTruncated() {
    Instant fine = Instant.parse("2026-02-15T12:00:00.123456999Z");
    SessionRecord saved =
        new SessionRecord(
            "pullo",
            UUID.randomUUID(),
            "offline",
            null,
            PROMPT_HASH,
            null,
            0,
            0,
            0,
            0,
            fine,
            fine,
            fine,
            SessionRecord.State.ACTIVE,
            null,
            0);

    sessions.save(saved);

    Instant truncated = Instant.parse("2026-02-15T12:00:00.123456Z");
    SessionRecord found = sessions.find("pullo").orElseThrow();
    assertThat(found.createdAt()).isEqualTo(truncated);
    assertThat(found.lastActiveAt()).isEqualTo(truncated);
    assertThat(found.expiresAt()).isEqualTo(truncated);
  }

  @Test
  void findOfAnOwnerWithoutARecordIsEmpty() {
    sessions.save(record("vorenus", clock.instant().plusSeconds(60)));

    assertThat(sessions.find("pullo")).isEmpty();
    assertThat(sessions.find("Vorenus")).isEmpty();
  }

  @Test
  void saveReplacesTheWholeRecord() {
    SessionRecord first =
        record("legatus", clock.instant().plusSeconds(60))
            .withBackendSessionId("conversation-1")
            .afterTurn(100, 20, 5, clock.instant(), clock.instant().plusSeconds(600))
            .closed("IDLE");
    sessions.save(first);
    clock.advance(Duration.ofMinutes(5));
    SessionRecord second = record("legatus", clock.instant().plusSeconds(60));

    sessions.save(second);

    assertThat(sessions.find("legatus")).contains(second);
    assertThat(sessions.list()).containsExactly(second);
  }

  @Test
  void savedTurnsAccumulateThroughTheRecord() {
    SessionRecord record = record("vorenus", clock.instant().plusSeconds(60));
    sessions.save(record);
    for (int turn = 0; turn < 3; turn++) {
      clock.advance(Duration.ofSeconds(7));
      record =
          sessions
              .find("vorenus")
              .orElseThrow()
              .afterTurn(1000, 100, 10L * turn, clock.instant(), clock.instant().plusSeconds(60));
      sessions.save(record);
    }

    SessionRecord found = sessions.find("vorenus").orElseThrow();
    assertThat(found).isEqualTo(record);
    assertThat(found.inputTokens()).isEqualTo(3000);
    assertThat(found.messageCount()).isEqualTo(3);
    assertThat(found.lastInjectedSequence()).isEqualTo(20);
  }

  @Test
  void listReturnsAllRecordsOrderedByOwnerCodePoint() {
    assertThat(sessions.list()).isEmpty();
    // Code point order: upper case before lower case, '-' before digits, non-ASCII last; a
    // locale's collation would put these differently.
    List<String> ordered =
        List.of("Pullo", "legatus", "telegram:-100", "telegram:123", "vorenus", "ärger");
    for (String owner : List.of("vorenus", "telegram:123", "ärger", "legatus", "Pullo")) {
      sessions.save(record(owner, clock.instant().plusSeconds(60)));
    }
    sessions.save(record("telegram:-100", clock.instant().plusSeconds(60)));

    assertThat(sessions.list()).extracting(SessionRecord::owner).containsExactlyElementsOf(ordered);
    for (SessionRecord listed : sessions.list()) {
      assertThat(sessions.find(listed.owner())).contains(listed);
    }
  }

  @Test
  void deleteRemovesTheOwnersRecordAndSaysWhetherThereWasOne() {
    SessionRecord pullo = record("pullo", clock.instant().plusSeconds(60));
    sessions.save(record("vorenus", clock.instant().plusSeconds(60)));
    sessions.save(pullo);

    assertThat(sessions.delete("vorenus")).isTrue();
    assertThat(sessions.find("vorenus")).isEmpty();
    assertThat(sessions.delete("vorenus")).isFalse();
    assertThat(sessions.delete("never-saved")).isFalse();
    assertThat(sessions.list()).containsExactly(pullo);
  }

  @Test
  void deleteExpiredDeletesExactlyTheRecordsThatExpiredBeforeNow() {
    Instant now = clock.instant();
    sessions.save(record("long-gone", now.minus(Duration.ofDays(3))));
    sessions.save(record("just-gone", now.minus(MICRO)));
    SessionRecord atNow = record("expires-now", now);
    SessionRecord later = record("expires-later", now.plus(MICRO));
    sessions.save(atNow);
    sessions.save(later);

    assertThat(sessions.deleteExpired(now)).isEqualTo(2);

    assertThat(sessions.list()).containsExactly(later, atNow);
    assertThat(sessions.deleteExpired(now)).isZero();
    assertThat(sessions.deleteExpired(now.plus(MICRO))).isEqualTo(1);
    assertThat(sessions.list()).containsExactly(later);
  }

  // ---------------------------------------------------------------- leases

  @Test
  void anotherHolderIsRefusedWhileTheLeaseHasNotRunOut() {
    Instant start = clock.instant();
    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isTrue();

    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isFalse();
    assertThat(sessions.tryLease("vorenus", "node-b", start.plusSeconds(10), LEASE)).isFalse();
    // until == now has not run out yet ("until before now" is the rule).
    assertThat(sessions.tryLease("vorenus", "node-b", start.plus(LEASE), LEASE)).isFalse();
  }

  @Test
  void aRefusedLeaseChangesNothing() {
    Instant start = clock.instant();
    sessions.tryLease("vorenus", "node-a", start, LEASE);

    // Had this refused attempt written its holder or its (later) until, the checks below would
    // see it.
    assertThat(sessions.tryLease("vorenus", "node-b", start.plusSeconds(10), Duration.ofHours(1)))
        .isFalse();

    assertThat(sessions.tryLease("vorenus", "node-c", start.plus(LEASE).plus(MICRO), LEASE))
        .isTrue();
    assertThat(sessions.tryLease("vorenus", "node-b", start.plus(LEASE).plus(MICRO), LEASE))
        .isFalse();
  }

  @Test
  void theHolderExtendsItsLease() {
    Instant start = clock.instant();
    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isTrue();

    assertThat(sessions.tryLease("vorenus", "node-a", start.plusSeconds(20), LEASE)).isTrue();

    // Without the extension the lease would have run out at start + 30 s.
    assertThat(sessions.tryLease("vorenus", "node-b", start.plusSeconds(40), LEASE)).isFalse();
    assertThat(sessions.tryLease("vorenus", "node-b", start.plusSeconds(50), LEASE)).isFalse();
    assertThat(sessions.tryLease("vorenus", "node-b", start.plusSeconds(50).plus(MICRO), LEASE))
        .isTrue();
  }

  @Test
  void aLeaseThatRanOutIsTakenOverAndTheOldHolderIsThenRefused() {
    Instant start = clock.instant();
    sessions.tryLease("vorenus", "node-a", start, LEASE);
    Instant later = start.plus(LEASE).plus(MICRO);

    assertThat(sessions.tryLease("vorenus", "node-b", later, LEASE)).isTrue();

    assertThat(sessions.tryLease("vorenus", "node-a", later, LEASE)).isFalse();
    assertThat(sessions.tryLease("vorenus", "node-b", later.plusSeconds(1), LEASE)).isTrue();
  }

  @Test
  void leasedOwnersAreThoseWithALeaseThatHasNotRunOut() {
    Instant start = clock.instant();
    sessions.tryLease("vorenus", "node-a", start, LEASE);
    sessions.tryLease("pullo", "node-b", start.minusSeconds(20), LEASE);
    sessions.tryLease("telegram:1", "node-a", start, LEASE);
    sessions.releaseLease("telegram:1", "node-a");

    assertThat(sessions.leasedOwners(start)).containsExactlyInAnyOrder("vorenus", "pullo");
    assertThat(sessions.leasedOwners(start.plusSeconds(15))).containsExactly("vorenus");
    assertThat(sessions.leasedOwners(start.plus(LEASE).plus(MICRO))).isEmpty();
  }

  @Test
  void onlyTheHolderReleasesItsLease() {
    Instant start = clock.instant();
    sessions.tryLease("vorenus", "node-a", start, LEASE);

    sessions.releaseLease("vorenus", "node-b");
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isFalse();

    sessions.releaseLease("vorenus", "node-a");
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isTrue();

    sessions.releaseLease("nobody-leased-this", "node-a"); // nothing to release: no error
  }

  @Test
  void saveAndReleaseLeaseSavesTheRecordAndFreesOnlyTheHoldersLease() {
    Instant start = clock.instant();
    sessions.tryLease("vorenus", "node-a", start, LEASE);
    sessions.tryLease("pullo", "node-a", start, LEASE);
    SessionRecord saved =
        record("vorenus", start.plusSeconds(60)).afterTurn(10, 2, 42, start, start.plusSeconds(90));

    sessions.saveAndReleaseLease(saved, "node-b");
    assertThat(sessions.find("vorenus")).contains(saved);
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isFalse();

    sessions.saveAndReleaseLease(saved, "node-a");
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isTrue();
    assertThat(sessions.tryLease("pullo", "node-b", start, LEASE)).isFalse();
  }

  @Test
  void appendAndTryLeaseLogsTheRequestAndTakesTheLeaseOnlyWhenItIsFree() {
    Instant start = clock.instant();
    MessageLog log = opened.get(0).messageLog();

    SessionStore.LeasedRequest first =
        sessions.appendAndTryLease(
            log,
            NewMessage.of("caesar", Audience.of("vorenus"), "one"),
            "vorenus",
            "node-a",
            start,
            LEASE);
    assertThat(first.leased()).isTrue();
    assertThat(log.find(first.message().id())).contains(first.message());
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isFalse();

    // Held by another: the request is logged all the same, the lease stays with its holder.
    SessionStore.LeasedRequest second =
        sessions.appendAndTryLease(
            log,
            NewMessage.of("caesar", Audience.of("vorenus"), "two"),
            "vorenus",
            "node-b",
            start,
            LEASE);
    assertThat(second.leased()).isFalse();
    assertThat(log.size()).isEqualTo(2);
    sessions.releaseLease("vorenus", "node-b");
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isFalse();
    sessions.releaseLease("vorenus", "node-a");
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isTrue();
  }

  @Test
  void finishTurnLogsTheReplySavesTheRecordAndFreesTheLeaseTogether() {
    Instant start = clock.instant();
    MessageLog log = opened.get(0).messageLog();
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "report"));
    sessions.tryLease("vorenus", "node-a", start, LEASE);
    SessionRecord saved =
        record("vorenus", start.plusSeconds(60))
            .afterTurn(10, 2, request.sequence(), start, start.plusSeconds(90))
            .withContext(new ContextUse(12_345, 200_000, 2, false));

    Message reply =
        sessions.finishTurn(
            log,
            NewMessage.of("vorenus", Audience.of("caesar"), "all quiet").replyingTo(request.id()),
            saved,
            "node-a");
    assertThat(log.find(reply.id())).contains(reply);
    assertThat(log.size()).isEqualTo(2);
    assertThat(sessions.find("vorenus")).contains(saved);
    assertThat(sessions.find("vorenus").orElseThrow().context())
        .isEqualTo(new ContextUse(12_345, 200_000, 2, false));
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isTrue();

    // A reply the log refuses (it answers a message that does not exist) changes nothing.
    SessionRecord later = saved.afterTurn(5, 1, request.sequence() + 1, start, start);
    assertThatThrownBy(
            () ->
                sessions.finishTurn(
                    log,
                    NewMessage.of("vorenus", Audience.of("caesar"), "lost")
                        .replyingTo(java.util.UUID.randomUUID()),
                    later,
                    "node-b"))
        .isInstanceOf(RuntimeException.class)
        .hasMessageContaining("reply_to");
    assertThat(log.size()).isEqualTo(2);
    assertThat(sessions.find("vorenus")).contains(saved);
    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isFalse();
  }

  @Test
  void saveWhileLeasedWritesOnlyWhileTheHolderHoldsTheLease() {
    Instant start = clock.instant();
    SessionRecord first = record("vorenus", start.plusSeconds(60));
    assertThatThrownBy(() -> sessions.saveWhileLeased(first, "node-a"))
        .as("no lease held")
        .isInstanceOf(LeaseLostException.class);
    assertThat(sessions.find("vorenus")).isEmpty();

    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isTrue();
    sessions.saveWhileLeased(first, "node-a");
    assertThat(sessions.find("vorenus")).contains(first);

    // node-a's write stalled past its lease, and node-b (a turn) took the lease meanwhile.
    Instant later = start.plus(LEASE).plusSeconds(1);
    assertThat(sessions.tryLease("vorenus", "node-b", later, LEASE)).isTrue();
    assertThatThrownBy(() -> sessions.saveWhileLeased(first.closed("reset"), "node-a"))
        .isInstanceOf(LeaseLostException.class);
    assertThat(sessions.find("vorenus")).contains(first);
    assertThat(sessions.tryLease("vorenus", "node-a", later, LEASE))
        .as("node-b's lease is left as it was")
        .isFalse();
  }

  /** The pid of a process that has ended, on this host. */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    long pid = p.pid();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    return pid;
  }

  @Test
  void aLeaseWhoseHolderDiedOnThisHostIsFreeAtOnce() throws Exception {
    Instant start = clock.instant();
    LegioStore store = openAnother();
    LeaseHolder dead = new LeaseHolder(LeaseHolder.thisProcess().host(), deadPid());
    SessionStore killed =
        store.sessionsAs(new JdbcSessionStore.LeaseUpkeep(dead, new HeldLeases(false), null));
    SessionStore elsewhere =
        store.sessionsAs(
            new JdbcSessionStore.LeaseUpkeep(
                new LeaseHolder("another-host", dead.pid()), new HeldLeases(false), null));
    assertThat(killed.tryLease("vorenus", "killed-mid-turn", start, LEASE)).isTrue();
    assertThat(elsewhere.tryLease("pullo", "other-node", start, LEASE)).isTrue();

    // Not counted as working; not freed when its holder runs elsewhere (that one runs out).
    assertThat(sessions.leasedOwners(start)).containsExactly("pullo");
    assertThat(sessions.releaseAbandonedLease("pullo")).isEmpty();
    assertThat(sessions.tryLease("pullo", "node-a", start, LEASE)).isFalse();
    // Taken at once, well before it runs out: a takeover, counted.
    assertThat(sessions.leaseTakeovers()).isZero();
    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isTrue();
    assertThat(sessions.leaseTakeovers()).isEqualTo(1);
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isFalse();
    // This process is alive: nothing to free.
    assertThat(sessions.releaseAbandonedLease("vorenus")).isEmpty();

    assertThat(killed.tryLease("legatus", "killed-mid-turn", start, LEASE)).isTrue();
    assertThat(sessions.releaseAbandonedLease("legatus")).contains(dead);
    assertThat(sessions.releaseAbandonedLease("legatus")).isEmpty();
    assertThat(sessions.leasedOwners(start)).containsExactlyInAnyOrder("pullo", "vorenus");
    // Freeing a dead holder's lease without taking it is no takeover.
    assertThat(sessions.leaseTakeovers()).isEqualTo(1);
  }

  @Test
  void aLeaseTakenBecauseItRanOutIsCountedAsATakeover() {
    Instant start = clock.instant();
    MessageLog log = opened.get(0).messageLog();
    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isTrue();
    // Renewed by its own holder, or taken while free: no takeover.
    assertThat(sessions.tryLease("vorenus", "node-a", start, LEASE)).isTrue();
    assertThat(sessions.tryLease("pullo", "node-a", start, LEASE)).isTrue();
    assertThat(sessions.leaseTakeovers()).isZero();

    // node-a stops renewing; once the lease has run out, node-b takes it: one takeover, on
    // both ways of taking a lease (alone, and with the request it is taken for).
    Instant later = start.plus(LEASE).plusSeconds(1);
    assertThat(sessions.tryLease("vorenus", "node-b", start.plusSeconds(1), LEASE)).isFalse();
    assertThat(sessions.tryLease("vorenus", "node-b", later, LEASE)).isTrue();
    assertThat(sessions.leaseTakeovers()).isEqualTo(1);
    SessionStore.LeasedRequest logged =
        sessions.appendAndTryLease(
            log,
            NewMessage.of("caesar", Audience.of("pullo"), "report"),
            "pullo",
            "node-b",
            later,
            LEASE);
    assertThat(logged.leased()).isTrue();
    assertThat(sessions.leaseTakeovers()).isEqualTo(2);
  }

  @Test
  void aHeldLeaseIsRenewedByItsHeartbeatAndALostOneFinishesNothing() {
    Instant start = clock.instant();
    MessageLog log = opened.get(0).messageLog();
    HeldLeases held = new HeldLeases(false);
    SessionStore beating =
        openAnother()
            .sessionsAs(new JdbcSessionStore.LeaseUpkeep(LeaseHolder.thisProcess(), held, clock));
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "report"));
    assertThat(beating.tryLease("vorenus", "long-turn", start, LEASE)).isTrue();

    // The turn outlives its lease, but the heartbeat renewed it: no one else may take it.
    clock.advance(LEASE.plusSeconds(5));
    held.renewAll();
    assertThat(sessions.tryLease("vorenus", "node-b", clock.instant(), LEASE)).isFalse();

    // The heartbeat stops (the process hangs); the lease runs out and node-b takes it.
    clock.advance(LEASE.plusSeconds(5));
    assertThat(sessions.tryLease("vorenus", "node-b", clock.instant(), LEASE)).isTrue();
    held.renewAll();
    assertThat(held.holds(beating, "vorenus", "long-turn")).isFalse();

    // The turn that lost its lease ends: nothing of it is written.
    SessionRecord stale =
        record("vorenus", start.plusSeconds(600))
            .afterTurn(10, 2, request.sequence(), start, start.plusSeconds(600));
    assertThatThrownBy(
            () ->
                beating.finishTurn(
                    log,
                    NewMessage.of("vorenus", Audience.of("caesar"), "late")
                        .replyingTo(request.id()),
                    stale,
                    "long-turn"))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("no longer held");
    assertThat(log.size()).isEqualTo(1);
    assertThat(sessions.find("vorenus")).isEmpty();
    assertThat(sessions.tryLease("vorenus", "node-c", clock.instant(), LEASE)).isFalse();
  }

  @Test
  void leasesAreIndependentOfRecordsAndOfOtherOwners() {
    Instant start = clock.instant();

    assertThat(sessions.tryLease("telegram:123", "node-a", start, LEASE)).isTrue();
    assertThat(sessions.find("telegram:123")).isEmpty();
    assertThat(sessions.list()).isEmpty();
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isTrue();

    sessions.save(record("telegram:123", start.plusSeconds(60)));
    assertThat(sessions.delete("telegram:123")).isTrue();
    assertThat(sessions.tryLease("telegram:123", "node-b", start, LEASE)).isFalse();
  }

  @Test
  void aLeaseMustLastAPositiveTime() {
    Instant start = clock.instant();
    assertThatThrownBy(() -> sessions.tryLease("vorenus", "node-a", start, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> sessions.tryLease("vorenus", "node-a", start, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(sessions.tryLease("vorenus", "node-b", start, LEASE)).isTrue();
  }

  // ---------------------------------------------------------------- concurrency

  @Test
  void exactlyOneOfManyConcurrentHoldersGetsTheLease() throws Exception {
    int threads = 8;
    Instant start = clock.instant();
    for (int round = 0; round < 10; round++) {
      String owner = "agent" + round;
      assertThat(race(threads, i -> sessions.tryLease(owner, "holder" + i, start, LEASE)))
          .as("winners for a free lease on %s", owner)
          .hasSize(1);
      // And again once that lease has run out: exactly one takes it over.
      Instant later = start.plus(LEASE).plus(MICRO);
      assertThat(race(threads, i -> sessions.tryLease(owner, "other" + i, later, LEASE)))
          .as("winners for the run-out lease on %s", owner)
          .hasSize(1);
    }
  }

  @Test
  void twoProcessesOnOneDatabaseNeverBothGetALease() throws Exception {
    SessionStore other = openAnother().sessions();
    List<SessionStore> processes = List.of(sessions, other);
    Instant start = clock.instant();
    for (int round = 0; round < 20; round++) {
      String owner = "agent" + round;
      // Two threads per process, so the winning process also extends its own fresh lease.
      List<Integer> winners =
          race(4, i -> processes.get(i % 2).tryLease(owner, "process" + (i % 2), start, LEASE));
      assertThat(winners).as("threads winning %s", owner).hasSize(2);
      assertThat(winners.get(0) % 2).isEqualTo(winners.get(1) % 2);
      boolean firstWon = sessions.tryLease(owner, "process0", start, LEASE);
      boolean secondWon = other.tryLease(owner, "process1", start, LEASE);
      assertThat(firstWon).isNotEqualTo(secondWon);
    }
    sessions.save(record("seen-by-both", start.plusSeconds(60)));
    assertThat(other.find("seen-by-both")).isPresent();
  }

  @Test
  void sessionWritesRunAlongsideLogAppendsFromSeveralThreads() throws Exception {
    LegioStore store = opened.get(0);
    MessageLog log = store.messageLog();
    int perThread = 100;
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CyclicBarrier go = new CyclicBarrier(8);
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        String sender = "agent" + t;
        work.add(
            pool.submit(
                (Callable<Void>)
                    () -> {
                      go.await();
                      for (int i = 0; i < perThread; i++) {
                        log.append(NewMessage.of(sender, Audience.of("caesar"), "n" + i));
                      }
                      return null;
                    }));
      }
      for (int t = 0; t < 4; t++) {
        String owner = "agent" + t;
        work.add(
            pool.submit(
                (Callable<Void>)
                    () -> {
                      go.await();
                      SessionRecord record = record(owner, clock.instant().plusSeconds(600));
                      for (int i = 0; i < perThread; i++) {
                        record =
                            record.afterTurn(10, 1, i, record.lastActiveAt(), record.expiresAt());
                        sessions.save(record);
                        assertThat(sessions.tryLease(owner, "node", clock.instant(), LEASE))
                            .isTrue();
                      }
                      return null;
                    }));
      }
      for (Future<?> done : work) {
        done.get(); // rethrows any failure, SQLITE_BUSY included
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(log.size()).isEqualTo(4L * perThread);
    assertThat(sessions.list())
        .extracting(SessionRecord::messageCount)
        .containsExactly((long) perThread, (long) perThread, (long) perThread, (long) perThread);
  }

  /** Runs {@code attempt(i)} for i in [0, threads) at once; returns the i that returned true. */
  private static List<Integer> race(int threads, Attempt attempt) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CyclicBarrier go = new CyclicBarrier(threads);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int index = i;
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  return attempt.run(index);
                }));
      }
      List<Integer> won = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        if (results.get(i).get()) {
          won.add(i);
        }
      }
      return won;
    } finally {
      pool.shutdownNow();
    }
  }

  @FunctionalInterface
  private interface Attempt {
    boolean run(int index);
  }

  // ---------------------------------------------------------------- errors

  @Test
  void aFailingDatabaseGivesASessionStoreExceptionNamingWhatFailed() {
    LegioStore closed = openAnother();
    SessionStore store = closed.sessions();
    closed.close();

    assertThatThrownBy(() -> store.save(record("vorenus", clock.instant())))
        .isInstanceOf(SessionStoreException.class)
        .hasMessageContaining("saving the session of 'vorenus'")
        .hasMessageContaining("database failed")
        .hasMessageContaining("legio.toml");
    assertThatThrownBy(() -> store.tryLease("vorenus", "node-a", clock.instant(), LEASE))
        .isInstanceOf(SessionStoreException.class)
        .hasMessageContaining("leasing the session of 'vorenus' for 'node-a'");
  }
}
