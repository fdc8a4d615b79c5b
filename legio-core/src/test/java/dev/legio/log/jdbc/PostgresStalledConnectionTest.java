package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.MessageLogException;
import dev.legio.testing.FreezingTcpProxy;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.net.URI;
import java.sql.Connection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A connection to PostgreSQL that stalls (the network lost, a stuck proxy: open, but no byte
 * arrives) fails what waits on it after the socket time-out, instead of for ever.
 */
class PostgresStalledConnectionTest {
  private static final MutableClock CLOCK = MutableClock.at("2026-02-15T12:00:00Z");

  private PostgresTestDatabase database;

  @BeforeEach
  void create() {
    database = PostgresTestDatabase.create();
  }

  @AfterEach
  void drop() {
    if (database != null) {
      database.close();
    }
  }

  private static JdbcMessageLogs.PostgresOptions options(String url) {
    return new JdbcMessageLogs.PostgresOptions(url, null, null, 4096, 2, CLOCK);
  }

  @Test
  void legiosConnectionsWaitSixtySecondsForTheDatabaseAtMostUnlessTheUrlSaysOtherwise()
      throws Exception {
    try (JdbcDatabase db = JdbcDatabase.openPostgres(options(database.url()));
        Connection pooled = db.pool().getConnection()) {
      assertThat(pooled.getNetworkTimeout()).isEqualTo(60_000);
      int[] writer = new int[1];
      db.openMessageLog(4096, CLOCK)
          .sharedWriter()
          .executeUpdate(
              "CREATE TABLE t (x INT)",
              statement -> writer[0] = statement.getConnection().getNetworkTimeout());
      assertThat(writer[0]).isEqualTo(60_000);
    }
    try (JdbcDatabase db = JdbcDatabase.openPostgres(options(database.url() + "&socketTimeout=0"));
        Connection pooled = db.pool().getConnection()) {
      assertThat(pooled.getNetworkTimeout()).as("the URL's own").isZero();
    }
  }

  @Test
  void aWriteOnAConnectionThatStalledFailsInBoundedTimeAndTheNextOneWorksOnceItIsBack()
      throws Exception {
    URI base = URI.create(database.url().substring("jdbc:".length()));
    try (FreezingTcpProxy proxy =
        new FreezingTcpProxy(base.getHost(), base.getPort() < 0 ? 5432 : base.getPort())) {
      String through =
          database
                  .url()
                  .replace(
                      base.getHost() + (base.getPort() < 0 ? "" : ":" + base.getPort()),
                      "127.0.0.1:" + proxy.port())
              + "&socketTimeout=2";
      try (JdbcDatabase db = JdbcDatabase.openPostgres(options(through))) {
        SharedWriter writer = db.openMessageLog(4096, CLOCK).sharedWriter();
        writer.executeUpdate("CREATE TABLE t (x INT)", s -> {});

        proxy.freeze();
        CompletableFuture<Integer> stalled =
            CompletableFuture.supplyAsync(
                () -> writer.executeUpdate("INSERT INTO t VALUES (1)", s -> {}));
        assertThatThrownBy(() -> stalled.get(30, TimeUnit.SECONDS))
            .as("fails, and within 30 s")
            .hasCauseInstanceOf(MessageLogException.class);

        proxy.thaw();
        assertThat(writer.executeUpdate("INSERT INTO t VALUES (2)", s -> {})).isEqualTo(1);
      }
    }
  }
}
