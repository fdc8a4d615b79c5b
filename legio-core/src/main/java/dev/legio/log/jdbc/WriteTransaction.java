package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The writer's connection during one transaction, with statements prepared once per connection and
 * reused (preparing costs more than running these small statements). Callers must not close the
 * statements it hands out; result sets they open they close themselves.
 */
final class WriteTransaction {
  private final Connection connection;
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  WriteTransaction(Connection connection) {
    this.connection = connection;
  }

  Connection connection() {
    return connection;
  }

  PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    } else {
      statement.clearParameters();
    }
    return statement;
  }

  /**
   * After a failed transaction: drops batches a failure left unexecuted (a successful executeBatch
   * empties its batch, and clearing costs more than the insert itself in SQLite's driver, so it is
   * done only here).
   */
  void discardBatches() {
    for (PreparedStatement statement : statements.values()) {
      try {
        statement.clearBatch();
      } catch (SQLException ignored) {
        // the statement is unusable; the connection check after a failure replaces it
      }
    }
  }

  void close() {
    for (PreparedStatement statement : statements.values()) {
      try {
        statement.close();
      } catch (SQLException ignored) {
        // closing the connection next releases it anyway
      }
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing more to do with a connection being thrown away
    }
  }
}
