package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Audience;
import dev.legio.log.NewMessage;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The log's one write connection, broken while it sat idle (the server restarted, or ended it for
 * {@code idle_session_timeout}, or a firewall dropped it): the next write runs on a fresh
 * connection instead of failing.
 */
class PostgresWriterReconnectTest {
  private PostgresTestDatabase database;
  private JdbcMessageLog log;

  @BeforeEach
  void open() {
    database = PostgresTestDatabase.create();
    log =
        (JdbcMessageLog)
            JdbcMessageLogs.openPostgres(
                new JdbcMessageLogs.PostgresOptions(
                    database.url(), null, null, 4096, 2, MutableClock.at("2026-02-15T12:00:00Z")));
    log.sharedWriter().executeUpdate("CREATE TABLE writer_pid (pid INTEGER NOT NULL)", s -> {});
  }

  @AfterEach
  void close() {
    if (log != null) {
      log.close();
    }
    if (database != null) {
      database.close();
    }
  }

  @Test
  void theServerEndsAWriteTransactionWhoseNodeWentQuietInsteadOfHoldingItsLocks() throws Exception {
    // A node that lost the network between a statement and its commit would otherwise hold the
    // counter row's lock, and stop every node's writes, until TCP keepalive noticed (hours).
    log.sharedWriter().executeUpdate("CREATE TABLE writer_setting (value TEXT NOT NULL)", s -> {});
    log.sharedWriter()
        .executeUpdate(
            "INSERT INTO writer_setting (value)"
                + " SELECT current_setting('idle_in_transaction_session_timeout')",
            s -> {});
    try (Connection other = DriverManager.getConnection(database.url());
        Statement s = other.createStatement();
        ResultSet rows = s.executeQuery("SELECT value FROM writer_setting")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getString(1)).isEqualTo("30s");
    }
  }

  @Test
  void aWriteAfterTheServerEndedTheIdleWriteConnectionLands() throws Exception {
    log.append(NewMessage.of("caesar", Audience.of("legatus"), "before"));
    end(writerPid());

    log.append(NewMessage.of("caesar", Audience.of("legatus"), "after"));

    assertThat(log.size()).isEqualTo(2);
  }

  @Test
  void aPruneRunAgainOnAFreshConnectionArchivesEachMessageOnce() throws Exception {
    log.append(NewMessage.of("caesar", Audience.of("legatus"), "one"));
    log.append(NewMessage.of("caesar", Audience.of("legatus"), "two"));
    int pid = writerPid();
    List<String> archived = new ArrayList<>();
    boolean[] ended = {false};

    var result =
        log.prune(
            Instant.parse("2026-02-16T00:00:00Z"),
            removed -> {
              removed.forEach(m -> archived.add(m.text()));
              if (!ended[0]) {
                ended[0] = true;
                try {
                  end(pid); // the connection breaks after the archive was written, before commit
                } catch (Exception e) {
                  throw new java.io.IOException(e);
                }
              }
            });

    assertThat(writerPid()).as("the prune ran again on a fresh connection").isNotEqualTo(pid);
    assertThat(result.removed()).hasSize(2);
    assertThat(log.size()).isZero();
    assertThat(archived).containsExactly("one", "two");
  }

  /** The server process of the writer's connection. */
  private int writerPid() throws Exception {
    log.sharedWriter().executeUpdate("DELETE FROM writer_pid", s -> {});
    log.sharedWriter()
        .executeUpdate("INSERT INTO writer_pid (pid) SELECT pg_backend_pid()", s -> {});
    try (Connection other = DriverManager.getConnection(database.url());
        Statement s = other.createStatement();
        ResultSet rows = s.executeQuery("SELECT pid FROM writer_pid")) {
      assertThat(rows.next()).isTrue();
      return rows.getInt(1);
    }
  }

  /** Ends a connection from the server's side, as a restart or a time-out would. */
  private void end(int pid) throws Exception {
    try (Connection other = DriverManager.getConnection(database.url());
        Statement s = other.createStatement()) {
      try (ResultSet rows = s.executeQuery("SELECT pg_terminate_backend(" + pid + ")")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getBoolean(1)).isTrue();
      }
      for (int i = 0; i < 50; i++) { // until the server has ended it
        try (ResultSet rows =
            s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = " + pid)) {
          rows.next();
          if (rows.getInt(1) == 0) {
            break;
          }
        }
        Thread.sleep(20);
      }
    }
  }
}
