package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdbcDatabaseTest {
  @TempDir Path dir;

  @Test
  void sqlitePoolConnectionsCheckpointAtTheWritersThreshold() throws Exception {
    try (JdbcDatabase database =
        JdbcDatabase.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                dir.resolve("praetorium.db"),
                4096,
                false,
                2,
                MutableClock.at("2026-02-15T12:00:00Z")))) {
      try (Connection connection = database.pool().getConnection();
          Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery("PRAGMA wal_autocheckpoint")) {
        row.next();
        assertThat(row.getInt(1)).isEqualTo(10_000);
        assertThat(connection.getAutoCommit()).isTrue();
      }
      assertThat(database.values().name()).isEqualTo("sqlite");
    }
  }

  @Test
  void aNewSqlitePraetoriumAndItsWriteAheadLogAreTheOwnersOnly() throws Exception {
    Path file = dir.resolve("castra/praetorium.db");
    try (JdbcDatabase database =
        JdbcDatabase.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                file, 4096, false, 2, MutableClock.at("2026-02-15T12:00:00Z")))) {
      try (Connection connection = database.pool().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("SELECT count(*) FROM flyway_schema_history"); // -wal and -shm exist
      }
      for (String name : new String[] {"praetorium.db", "praetorium.db-wal", "praetorium.db-shm"}) {
        Path f = file.resolveSibling(name);
        if (java.nio.file.Files.exists(f)) {
          assertThat(
                  java.nio.file.attribute.PosixFilePermissions.toString(
                      java.nio.file.Files.getPosixFilePermissions(f)))
              .as(name)
              .isEqualTo("rw-------");
        }
      }
      assertThat(file.resolveSibling("praetorium.db-wal")).exists();
    }
  }
}
