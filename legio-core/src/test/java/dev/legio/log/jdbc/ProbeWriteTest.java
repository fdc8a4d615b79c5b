package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/**
 * The writer's health probe ({@link Dialect#probeWrite}) writes for real: it fails where a write
 * would, so a probe that succeeds tells readiness that writes succeed again. A bare {@code SELECT
 * 1} passes every check below but the last of each database.
 */
class ProbeWriteTest {
  @TempDir Path dir;

  @Test
  void onSqliteTheProbeCommitsAWriteAndFailsOnADatabaseOpenedReadOnly() throws Exception {
    String url = "jdbc:sqlite:" + dir.resolve("probe.db");
    SqliteDialect dialect = new SqliteDialect();
    try (Connection writer = DriverManager.getConnection(url);
        Connection reader = DriverManager.getConnection(url);
        Statement w = writer.createStatement()) {
      w.execute("CREATE TABLE t (n INTEGER)");
      long before = dataVersion(reader);
      w.execute("BEGIN IMMEDIATE");
      dialect.probeWrite(writer);
      w.execute("COMMIT");
      // data_version changes when another connection committed a change to the file.
      assertThat(dataVersion(reader)).isNotEqualTo(before);
    }
    SQLiteConfig readOnly = new SQLiteConfig();
    readOnly.setReadOnly(true);
    try (Connection c = readOnly.createConnection(url)) {
      assertThatThrownBy(() -> dialect.probeWrite(c))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("readonly");
    }
  }

  @Test
  void onPostgresTheProbeFailsInAReadOnlyTransactionAsOnAStandby() throws Exception {
    PostgresDialect dialect = new PostgresDialect();
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        Connection c = DriverManager.getConnection(database.url())) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE nuntii (sender TEXT)"); // the log's table, as far as the probe goes
      }
      c.setAutoCommit(false);
      dialect.probeWrite(c); // a transaction that may write: the probe passes
      c.rollback();
      try (Statement s = c.createStatement()) {
        s.execute("SET TRANSACTION READ ONLY");
      }
      assertThatThrownBy(() -> dialect.probeWrite(c))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("read-only transaction");
      c.rollback();
    }
  }

  private static long dataVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("PRAGMA data_version")) {
      r.next();
      return r.getLong(1);
    }
  }
}
