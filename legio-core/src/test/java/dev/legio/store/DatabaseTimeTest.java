package dev.legio.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The database's own clock as {@link LegioStore#databaseTime()} reads it, on both databases. */
class DatabaseTimeTest {
  @TempDir Path dir;

  @Test
  void postgresGivesItsClockAndANodeMeasuresItsOffsetFromIt() throws Exception {
    MutableClock node = new MutableClock(Instant.now());
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        LegioStore store =
            LegioStore.openPostgres(
                new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 4096, 2, node))) {
      Instant before = Instant.now();
      Instant theirs = store.databaseTime().now();
      assertThat(theirs).isBetween(before.minusSeconds(2), Instant.now().plusSeconds(2));

      DatabaseAlignedClock aligned = new DatabaseAlignedClock(node, Duration.ofSeconds(7));
      node.set(Instant.now().plus(Duration.ofMinutes(5))); // this machine is 5 minutes ahead
      aligned.measure(store.databaseTime()).orElseThrow();

      assertThat(aligned.offset())
          .isBetween(Duration.ofMinutes(-5).minusSeconds(2), Duration.ofMinutes(-5).plusSeconds(2));
      assertThat(aligned.instant()).isBetween(theirs, Instant.now().plusSeconds(2));
    }
  }

  @Test
  void aMeasurementWhileTheDatabaseCannotBeReachedKeepsTheOffset() {
    MutableClock node = new MutableClock(Instant.now());
    DatabaseAlignedClock aligned = new DatabaseAlignedClock(node, Duration.ofSeconds(7));
    DatabaseAlignedClock.DatabaseTime closed;
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        LegioStore store =
            LegioStore.openPostgres(
                new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 4096, 2, node))) {
      node.set(Instant.now().minus(Duration.ofMinutes(1)));
      aligned.measure(store.databaseTime()).orElseThrow();
      closed = store.databaseTime();
    }
    Duration measured = aligned.offset();

    assertThat(aligned.measure(closed)).isEmpty();

    assertThat(aligned.offset()).isEqualTo(measured);
    assertThat(measured).isBetween(Duration.ofSeconds(58), Duration.ofSeconds(62));
  }

  @Test
  void sqliteGivesTheMachinesClock() throws Exception {
    try (LegioStore store =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                dir.resolve("praetorium.db"), 4096, false, 2, Clock.systemUTC()))) {
      Instant before = Instant.now().minusMillis(1);

      assertThat(store.databaseTime().now()).isBetween(before, Instant.now().plusMillis(1));
    }
  }
}
