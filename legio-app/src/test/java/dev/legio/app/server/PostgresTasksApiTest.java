package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.app.StoreOpener;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.session.LeaseHolder;
import dev.legio.store.LegioStore;
import dev.legio.task.TaskSessionRecord;
import dev.legio.task.TaskSessions;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageRecorder;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v1/tasks} on PostgreSQL through real HTTP, where a second node shares the
 * database: a turn whose answer came but whose write failed is told as taken over (409 with the
 * answer) when another node took its session meanwhile.
 */
class PostgresTasksApiTest {
  static final String KEY = "campaign:7f3c";

  @TempDir Path dir;

  /**
   * This node loses the database while its turn runs, for longer than its lease: node b (its clock
   * an hour ahead) takes the session over and runs a task of it, and this node's write of its
   * answer then fails. A statement trigger stands for the database failing that write: it refuses
   * the lease check that opens the write's transaction, whatever rows it finds, and nothing else.
   */
  @Test
  void anAnswerWhoseWriteFailedAfterAnotherNodeTookTheSessionIs409WithTheAnswer() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        ServerFixture f =
            new ServerFixture(
                dir, Duration.ofMillis(300), 4096, Map.of("LEGIO_DB_URL", database.url()))) {
      assertThat(task(f, "scout the ford").statusCode()).isEqualTo(200);
      MutableClock later = new MutableClock(Instant.now().plus(Duration.ofHours(1)));
      try (LegioStore nodeB =
              StoreOpener.open(
                  f.app.config().praetorium(),
                  later,
                  LegioApp.Lifetime.LONG_RUNNING,
                  new LeaseHolder("node-b", 1));
          TaskSessions b =
              new TaskSessions(
                  f.app.agents(),
                  new OfflineBackend(),
                  null,
                  nodeB.tasks(),
                  nodeB.sessions(),
                  nodeB.usage(),
                  new UsageRecorder(nodeB.usage(), f.app.prices()),
                  f.app.config().sessions(),
                  later,
                  nodeB.conversations())) {
        CompletableFuture<HttpResponse<String>> held =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return task(f, "#hold and the bridge");
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
        assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
        b.run(KEY, "vorenus", "the ford on node b", "run-b");
        TaskSessionRecord leftByB = f.app.store().tasks().find(KEY, "vorenus").orElseThrow();
        refuseWritesUnderALease(database);
        f.release();

        HttpResponse<String> lost = held.get(30, TimeUnit.SECONDS);

        assertError(lost, 409, "the session of vorenus for key '" + KEY + "' was taken over");
        assertError(lost, 409, "is given here (reply), but it is not in the session's history");
        assertError(lost, 409, "the other node may have answered it too");
        JsonNode body = ServerFixture.json(lost);
        assertThat(body.fieldNames())
            .toIterable()
            .containsExactlyInAnyOrder("error", "reply", "task_run_id");
        assertThat(body.get("reply").asText()).contains("#hold and the bridge");
        assertThat(body.get("task_run_id").asText()).isEqualTo("run-20");
        assertThat(f.app.store().tasks().find(KEY, "vorenus")).contains(leftByB);
        // The write did fail (were the trigger to miss it, the write would find the lease lost
        // itself, and the 409 would not tell this path from that one).
        assertThat(writesRefused(database)).isPositive();
      }
      // Its tokens were spent: the ledger has the turn as lease_lost, not as a database error.
      assertThat(f.app.usage().entries(Instant.EPOCH, 100))
          .filteredOn(e -> "run-20".equals(e.task().taskRunId()))
          .extracting(LedgerEntry::outcome)
          .containsExactly(TurnOutcome.LEASE_LOST);
    }
  }

  private static HttpResponse<String> task(ServerFixture f, String text) throws Exception {
    return f.post(
        "/api/v1/tasks",
        f.task,
        Map.of(
            "session_key",
            KEY,
            "agent",
            "vorenus",
            "text",
            text,
            "task_run_id",
            "run-" + text.length()));
  }

  /** How many writes under a lease {@link #refuseWritesUnderALease} refused. */
  private static long writesRefused(PostgresTestDatabase database) throws Exception {
    try (Connection c = DriverManager.getConnection(database.url());
        Statement s = c.createStatement();
        java.sql.ResultSet r =
            s.executeQuery(
                "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "
                    + database.schema()
                    + ".writes_refused")) {
      r.next();
      return r.getLong(1);
    }
  }

  /**
   * Makes every write that must hold a session lease fail from now on, as a database out of reach
   * does: the statement that checks the lease first in the write's transaction ({@code
   * LeaseRows.guard}) raises an error. Renewing, taking and giving up leases still work.
   */
  private static void refuseWritesUnderALease(PostgresTestDatabase database) throws Exception {
    String schema = database.schema();
    try (Connection c = DriverManager.getConnection(database.url());
        Statement s = c.createStatement()) {
      // A sequence counts the refusals: nextval is not rolled back with the refused transaction.
      s.execute("CREATE SEQUENCE " + schema + ".writes_refused");
      s.execute(
          "CREATE FUNCTION "
              + schema
              + ".refuse_lease_guard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
              + " IF current_query() LIKE '%SET holder = holder%' THEN"
              + " PERFORM nextval('"
              + schema
              + ".writes_refused');"
              + " RAISE EXCEPTION 'the test refuses writes under a lease'; END IF;"
              + " RETURN NULL; END $$");
      s.execute(
          "CREATE TRIGGER refuse_lease_guard BEFORE UPDATE ON "
              + schema
              + ".session_leases FOR EACH STATEMENT EXECUTE FUNCTION "
              + schema
              + ".refuse_lease_guard()");
    }
  }
}
