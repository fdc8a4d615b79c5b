package dev.legio.log.jdbc;

import dev.legio.log.MessageLogException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * What Legio does when a PostgreSQL server has no connection left for it ({@code FATAL: sorry, too
 * many clients already}, SQLSTATE 53300).
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>Opening a connection that fails for that reason is tried again, waiting 100 ms, 200 ms, ...
 *       (at most 1 s between tries), for at most {@link #PATIENCE}: other Legio processes finish
 *       their commands and give theirs back.
 *   <li>Any other failure is not retried.
 *   <li>When the patience runs out the error says what happened and what to do (fewer processes, a
 *       smaller {@code [praetorium] pool_size}, a larger {@code max_connections}), not a stack
 *       trace.
 * </ol>
 */
public final class ConnectionExhaustion {
  /** How long an exhausted server is waited for. */
  public static final Duration PATIENCE = Duration.ofSeconds(15);

  private static final org.slf4j.Logger log = LoggerFactory.getLogger(ConnectionExhaustion.class);

  private ConnectionExhaustion() {}

  /** Whether {@code failure} or one of its causes is PostgreSQL's "too many connections". */
  public static boolean isExhaustion(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && "53300".equals(sql.getSQLState())) {
        return true;
      }
      String message = String.valueOf(t.getMessage());
      if (message.contains("too many clients")
          || message.contains("connection slots are reserved")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /**
   * Runs {@code open} (something that opens connections), trying again while the server is
   * exhausted, within {@code patience}; {@code where} names the server in the error.
   */
  public static <T> T retrying(String where, Duration patience, Supplier<T> open) {
    long deadline = System.nanoTime() + patience.toNanos();
    long pause = 100;
    while (true) {
      try {
        return open.get();
      } catch (RuntimeException e) {
        if (!isExhaustion(e)) {
          throw e;
        }
        if (System.nanoTime() + pause * 1_000_000 > deadline) {
          throw exhausted(where, patience, e);
        }
        log.info("{} has no free connection; trying again in {} ms", where, pause);
        sleep(pause);
        pause = Math.min(1_000, pause * 2);
      }
    }
  }

  /** The error when the server stayed exhausted. */
  public static MessageLogException exhausted(String where, Duration patience, Throwable cause) {
    return new MessageLogException(
        "the PostgreSQL server at "
            + where
            + " has no free connection (too many clients) and had none for "
            + patience.toSeconds()
            + " s: run fewer Legio processes at once, lower [praetorium] pool_size in legio.toml,"
            + " or raise max_connections on the server",
        cause);
  }

  /** {@code data} whose {@link DataSource#getConnection()} waits out an exhausted server. */
  public static DataSource patient(DataSource data, String where) {
    return new DataSource() {
      @Override
      public Connection getConnection() throws SQLException {
        return open(() -> data.getConnection());
      }

      @Override
      public Connection getConnection(String user, String password) throws SQLException {
        return open(() -> data.getConnection(user, password));
      }

      private Connection open(SqlOpen opening) throws SQLException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        long pause = 100;
        while (true) {
          try {
            return opening.open();
          } catch (SQLException e) {
            if (!isExhaustion(e)) {
              throw e;
            }
            if (System.nanoTime() + pause * 1_000_000 > deadline) {
              throw exhausted(where, PATIENCE, e);
            }
            sleep(pause);
            pause = Math.min(1_000, pause * 2);
          }
        }
      }

      @Override
      public PrintWriter getLogWriter() throws SQLException {
        return data.getLogWriter();
      }

      @Override
      public void setLogWriter(PrintWriter out) throws SQLException {
        data.setLogWriter(out);
      }

      @Override
      public void setLoginTimeout(int seconds) throws SQLException {
        data.setLoginTimeout(seconds);
      }

      @Override
      public int getLoginTimeout() throws SQLException {
        return data.getLoginTimeout();
      }

      @Override
      public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return data.getParentLogger();
      }

      @Override
      public <T> T unwrap(Class<T> iface) throws SQLException {
        return data.unwrap(iface);
      }

      @Override
      public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return data.isWrapperFor(iface);
      }
    };
  }

  @FunctionalInterface
  private interface SqlOpen {
    Connection open() throws SQLException;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MessageLogException("interrupted while waiting for a PostgreSQL connection", e);
    }
  }
}
