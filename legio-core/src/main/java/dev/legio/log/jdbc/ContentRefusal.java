package dev.legio.log.jdbc;

import java.sql.SQLException;
import java.util.Set;

/**
 * Whether a write failed because the database refused what it holds (a refusal of that write alone)
 * rather than because the database cannot write now: what tells the writer's health ({@link
 * WriterHealth}) to leave a node in the load balancer's rotation after a failed write.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A refusal of content is a failure the same database gives that write wherever it is sent,
 *       while it takes other writes: a constraint the row breaks (unique, check, not null, foreign
 *       key, a trigger's {@code RAISE}), a value its column cannot hold (too long, out of range,
 *       invalid UTF-8). Sending it to another node changes nothing; taking this node out of
 *       rotation would only send other requests away from a database that takes them.
 *   <li>PostgreSQL: SQL state class {@code 23} (integrity constraint violation) or {@code 22} (data
 *       exception), or {@code P0001} ({@code raise_exception}: what a PL/pgSQL {@code RAISE
 *       EXCEPTION} without a code of its own raises, as a trigger refusing a row does: deliberate,
 *       about that row, and raised again for it wherever it is sent, as SQLite's {@code
 *       RAISE(ABORT)} in a trigger is a {@code SQLITE_CONSTRAINT}). SQLite: the primary result
 *       codes {@code SQLITE_CONSTRAINT} (19), {@code SQLITE_TOOBIG} (18) and {@code
 *       SQLITE_MISMATCH} (20).
 *   <li>Everything else is the database failing to write (a lock, a connection, a read-only or full
 *       database, a missing table, a trigger raising a code of another class), including a failure
 *       no code explains: when in doubt, the node is not ready until a write succeeds, as before.
 *   <li>The failure's chain is read (causes and next exceptions: a batch's failure wraps the row's;
 *       at most 16, so a chain that loops ends), and the first code found decides.
 * </ul>
 */
public final class ContentRefusal {
  /** The most exceptions of a chain read: a chain that loops ends there. */
  private static final int MAX_CHAIN = 16;

  /** PostgreSQL's SQL state of a PL/pgSQL {@code RAISE EXCEPTION} given no code of its own. */
  private static final String RAISE_EXCEPTION = "P0001";

  /** SQLite's primary result codes of a refusal of content. */
  private static final Set<Integer> SQLITE_CODES = Set.of(18, 19, 20);

  private ContentRefusal() {}

  /**
   * Whether the write that failed with {@code failure} (an {@link SQLException}, or an exception
   * with one among its causes) was refused for what it holds by the database {@code database} names
   * ({@link SqlValues#name}: "sqlite" or "postgres"); false when no SQL exception is found.
   */
  public static boolean of(SqlValues database, Throwable failure) {
    Throwable t = failure;
    for (int i = 0; t != null && i < MAX_CHAIN; i++, t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return database.name().equals("postgres") ? byPostgres(sql) : bySqlite(sql);
      }
    }
    return false;
  }

  /** Whether PostgreSQL refused the write that failed with {@code failure} for what it holds. */
  static boolean byPostgres(SQLException failure) {
    SQLException e = failure;
    for (int i = 0; e != null && i < MAX_CHAIN; i++, e = next(e)) {
      String state = e.getSQLState();
      if (state != null && state.length() == 5) {
        return state.startsWith("23") || state.startsWith("22") || state.equals(RAISE_EXCEPTION);
      }
    }
    return false;
  }

  /** Whether SQLite refused the write that failed with {@code failure} for what it holds. */
  static boolean bySqlite(SQLException failure) {
    SQLException e = failure;
    for (int i = 0; e != null && i < MAX_CHAIN; i++, e = next(e)) {
      int code = e.getErrorCode() & 0xff; // the primary result code of an extended one
      if (code != 0) {
        return SQLITE_CODES.contains(code);
      }
    }
    return false;
  }

  /** The exception behind {@code e}: its cause if an SQL exception, else its next one. */
  private static SQLException next(SQLException e) {
    if (e.getCause() instanceof SQLException cause && cause != e) {
      return cause;
    }
    SQLException next = e.getNextException();
    return next == e ? null : next;
  }
}
