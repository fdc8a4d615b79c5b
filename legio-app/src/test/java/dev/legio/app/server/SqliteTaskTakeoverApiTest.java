package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.session.jdbc.LeaseRows;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * {@link TaskTakeoverApiContract} on SQLite (the praetorium's file, shared by both nodes).
 *
 * <p>SQLite has no statement triggers, and a row trigger does not fire for the lease check once the
 * lease is another node's (it finds no row of this node's). What fails the check instead is a
 * trigger on a change of a lease's holder whose body reads a table that does not exist: SQLite
 * codes a statement's triggers when it prepares the statement, so every statement that sets {@code
 * holder} (the lease check, {@code SET holder = holder}, and taking a lease) fails at once, rows or
 * none, while renewing a lease ({@code SET lease_until}) and giving one up ({@code DELETE}) still
 * work.
 */
class SqliteTaskTakeoverApiTest extends TaskTakeoverApiContract {
  private static final String REFUSAL = "writes_under_a_lease_are_refused_by_the_test";

  @Override
  ServerFixture start(Path dir) throws Exception {
    return new ServerFixture(dir, Duration.ofMillis(300), 4096);
  }

  @Override
  void refuseWritesUnderALease(ServerFixture f) throws Exception {
    try (Connection c = open(f);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TRIGGER refuse_lease_guard BEFORE UPDATE OF holder ON session_leases"
              + " BEGIN SELECT * FROM "
              + REFUSAL
              + "; END");
    }
  }

  /**
   * SQLite keeps no count of statements it refused: what is checked is that the lease check's own
   * statement fails on this database, so the write could not have passed it.
   */
  @Override
  void assertAWriteUnderALeaseWasRefused(ServerFixture f) {
    assertThatThrownBy(
            () -> {
              try (Connection c = open(f);
                  PreparedStatement guard =
                      c.prepareStatement(LeaseRows.guard("any", "any").sql())) {
                guard.setString(1, "any");
                guard.setString(2, "any");
                guard.executeUpdate();
              }
            })
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(REFUSAL);
  }

  private static Connection open(ServerFixture f) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + f.root.resolve("castra/praetorium.db"));
  }
}
