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
}
