package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Prepared statements of the hot read queries, kept per physical connection of a pool and reused by
 * whoever borrows that connection next. Preparing costs as much as running these queries (on
 * SQLite, parsing and planning a join each time), so a statement is prepared once per connection.
 *
 * <p>Rules: a borrower uses a statement only while it holds the connection, closes the result sets
 * it opens and never closes the statement. A connection the pool retires takes its statements with
 * it (the map holds connections weakly).
 */
public final class ReadStatements {
  private final Map<Connection, Map<String, PreparedStatement>> byConnection =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * A prepared statement for {@code sql} on {@code pooled}'s physical connection, parameters
   * cleared.
   */
  public PreparedStatement prepare(Connection pooled, String sql) throws SQLException {
    Connection physical = pooled.unwrap(Connection.class);
    Map<String, PreparedStatement> statements =
        byConnection.computeIfAbsent(physical, c -> new HashMap<>());
    PreparedStatement statement = statements.get(sql);
    if (statement == null || statement.isClosed()) {
      statement = physical.prepareStatement(sql);
      statements.put(sql, statement);
    } else {
      statement.clearParameters();
    }
    return statement;
  }
}
