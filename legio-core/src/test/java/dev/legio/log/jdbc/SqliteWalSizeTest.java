package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's write-ahead log after a transaction larger than it usually holds: cut back once a
 * checkpoint has copied it into the database, instead of keeping that size for as long as Legio
 * runs.
 */
class SqliteWalSizeTest {
  @TempDir Path dir;

  @Test
  void theWriteAheadLogShrinksBackUnderTheLimitAfterALargeTransactionAndACheckpoint()
      throws Exception {
    Path file = dir.resolve("praetorium.db");
    Path wal = dir.resolve("praetorium.db-wal");
    long large = JdbcDatabase.SQLITE_JOURNAL_SIZE_LIMIT + (32L << 20);
    try (JdbcMessageLog log =
        (JdbcMessageLog)
            JdbcMessageLogs.openSqlite(
                new JdbcMessageLogs.SqliteOptions(
                    file, 4096, false, 2, MutableClock.at("2026-02-15T12:00:00Z")))) {
      SharedWriter writer = log.sharedWriter();
      writer.executeUpdate("CREATE TABLE bulk (b BLOB NOT NULL)", s -> {});
      writer.executeUpdate("INSERT INTO bulk (b) VALUES (zeroblob(?))", s -> s.setLong(1, large));
      assertThat(Files.size(wal)).as("the large transaction's log").isGreaterThan(large);

      writer.executeUpdate("DELETE FROM bulk", s -> {});
      try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
          java.sql.Statement s = other.createStatement()) {
        s.execute("PRAGMA wal_checkpoint(PASSIVE)"); // as the next automatic one would
      }
      // The next transaction starts the log over at its beginning, cutting the file back.
      writer.executeUpdate("CREATE TABLE after_checkpoint (n INTEGER)", s -> {});

      assertThat(Files.size(wal)).isLessThanOrEqualTo(JdbcDatabase.SQLITE_JOURNAL_SIZE_LIMIT);
    }
  }
}
