package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link TaskTakeoverApiContract} on PostgreSQL (127.0.0.1:5432, database {@code test}), each test
 * in a schema of its own. A statement trigger stands for the database failing a write under a
 * lease: it refuses the lease check that opens the write's transaction, whatever rows it finds, and
 * nothing else.
 */
class PostgresTaskTakeoverApiTest extends TaskTakeoverApiContract {
  private PostgresTestDatabase database;

  @BeforeEach
  void createDatabase() {
    database = PostgresTestDatabase.create();
  }

  @AfterEach
  void dropDatabase() {
    database.close();
  }

  @Override
  ServerFixture start(Path dir) throws Exception {
    return new ServerFixture(
        dir, Duration.ofMillis(300), 4096, Map.of("LEGIO_DB_URL", database.url()));
  }

  @Override
  void refuseWritesUnderALease(ServerFixture f) throws Exception {
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

  @Override
  void assertAWriteUnderALeaseWasRefused(ServerFixture f) throws Exception {
    try (Connection c = DriverManager.getConnection(database.url());
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "
                    + database.schema()
                    + ".writes_refused")) {
      r.next();
      assertThat(r.getLong(1)).as("writes under a lease the trigger refused").isPositive();
    }
  }
}
