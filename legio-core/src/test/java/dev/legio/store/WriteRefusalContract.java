package dev.legio.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import dev.legio.log.MessageLogException;
import dev.legio.log.NewMessage;
import dev.legio.pricing.Tokens;
import dev.legio.testing.MutableClock;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TurnCost;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageRowRefusedException;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write the database refuses for what it holds (a real refusal: a constraint or trigger the test
 * adds to the table, hit through Legio's own writer) fails for its caller alone: the writer is not
 * counted as failing, so {@code /readyz} keeps a node whose database takes writes in rotation.
 * Subclasses choose the database.
 */
abstract class WriteRefusalContract {
  private static final Instant AT = Instant.parse("2026-11-28T09:00:00Z");

  @TempDir Path dir;
  final MutableClock clock = new MutableClock(AT);
  LegioStore store;

  abstract LegioStore openStore(Path dir, MutableClock clock);

  /** A connection of another program to the store's database. */
  abstract Connection connect() throws Exception;

  /**
   * Makes the database refuse, from now on, every new row of {@code table} whose {@code column} is
   * {@code value}: SQLite by a trigger's {@code RAISE(ABORT)}, PostgreSQL by a CHECK constraint.
   */
  abstract void refuse(Connection c, String table, String column, String value) throws Exception;

  /**
   * Makes the database refuse, from now on, every new row of {@code table} whose {@code column} is
   * {@code value} by a trigger that raises an error naming {@code refuse_<value>}: SQLite's {@code
   * RAISE(ABORT)}, PostgreSQL's PL/pgSQL {@code RAISE EXCEPTION} (SQL state {@code P0001}).
   */
  abstract void refuseByTrigger(Connection c, String table, String column, String value)
      throws Exception;

  @BeforeEach
  void open() {
    store = openStore(dir, clock);
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void aMessageTheDatabaseRefusesFailsAloneAndTheWriterStaysHealthy() throws Exception {
    try (Connection c = connect()) {
      refuse(c, "nuntii", "sender", "poison");
    }
    store.messageLog().append(NewMessage.of("caesar", Audience.of("vorenus"), "before"));

    assertThatThrownBy(
            () -> store.messageLog().append(NewMessage.of("poison", Audience.ALL, "refused")))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("refuse_poison");

    assertThat(store.health().writerProblem())
        .as("the database took the write before and takes the next: the node stays ready")
        .isNull();
    store.messageLog().append(NewMessage.of("caesar", Audience.of("vorenus"), "after"));
    assertThat(store.messageLog().history(10))
        .extracting(m -> m.text())
        .containsExactly("before", "after");
    assertThat(store.health().writerProblem()).isNull();
  }

  @Test
  void aUsageRowTheDatabaseRefusesOnTheSharedWriterLeavesTheWriterHealthy() throws Exception {
    try (Connection c = connect()) {
      refuse(c, "usage_ledger", "owner", "poison");
    }

    assertThatThrownBy(() -> store.usage().append(row("poison")))
        .as("told apart from a failing database, so the usage writer gives it up at once")
        .isInstanceOf(UsageRowRefusedException.class)
        .hasMessageContaining("refuse_poison");

    assertThat(store.health().writerProblem()).isNull();
    store.usage().append(row("vorenus"));
    assertThat(store.usage().entries(AT.minusSeconds(60), 10))
        .extracting(LedgerEntry::owner)
        .containsExactly("vorenus");
  }

  @Test
  void aMessageATriggerRefusesFailsAloneAndTheWriterStaysHealthy() throws Exception {
    try (Connection c = connect()) {
      refuseByTrigger(c, "nuntii", "sender", "poison");
    }

    assertThatThrownBy(
            () -> store.messageLog().append(NewMessage.of("poison", Audience.ALL, "refused")))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("refuse_poison");

    assertThat(store.health().writerProblem())
        .as("a trigger refusing a row is a refusal of that row, not a failing database")
        .isNull();
    store.messageLog().append(NewMessage.of("caesar", Audience.of("vorenus"), "after"));
    assertThat(store.messageLog().history(10)).extracting(m -> m.text()).containsExactly("after");
  }

  @Test
  void aUsageRowATriggerRefusesIsToldAsRefusedForItsContent() throws Exception {
    try (Connection c = connect()) {
      refuseByTrigger(c, "usage_ledger", "owner", "poison");
    }

    assertThatThrownBy(() -> store.usage().append(row("poison")))
        .isInstanceOf(UsageRowRefusedException.class)
        .hasMessageContaining("refuse_poison");

    assertThat(store.health().writerProblem()).isNull();
    store.usage().append(row("vorenus"));
    assertThat(store.usage().entries(AT.minusSeconds(60), 10))
        .extracting(LedgerEntry::owner)
        .containsExactly("vorenus");
  }

  private static LedgerEntry row(String owner) {
    return new LedgerEntry(
        AT,
        UUID.randomUUID(),
        owner,
        null,
        "offline",
        null,
        new Tokens(10, 5, 0, 0),
        TurnCost.choose("offline", null, null),
        Duration.ofMillis(5),
        TurnOutcome.OK);
  }
}
