package dev.legio.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Changes to Legio's database made behind its back, as another program (or a person with a SQL
 * prompt, or a damaged file) would: statements on a connection of their own, with the {@code CHECK}
 * constraints of the {@code sessions} table not enforced, so that a test can put there a value
 * Legio never writes.
 */
public final class HandEdits {
  private HandEdits() {}

  /** Runs {@code sql} on the SQLite database {@code file}, CHECK constraints ignored. */
  public static void sqlite(Path file, String... sql) {
    run("jdbc:sqlite:" + file, "PRAGMA ignore_check_constraints = ON", sql);
  }

  /**
   * Runs {@code sql} on the PostgreSQL database at {@code url} (a test's own schema), after
   * dropping the check on {@code sessions.state}.
   */
  public static void postgres(String url, String... sql) {
    run(url, "ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_state_check", sql);
  }

  private static void run(String url, String first, String... sql) {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(first);
      for (String one : sql) {
        statement.execute(one);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("a hand edit failed: " + e.getMessage(), e);
    }
  }
}
