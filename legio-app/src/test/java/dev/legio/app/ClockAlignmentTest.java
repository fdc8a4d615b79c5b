package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.store.DatabaseAlignedClock;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes on one PostgreSQL database whose machines' clocks disagree by more than the lease time:
 * their leases still hold and run out by the database's clock.
 */
class ClockAlignmentTest {
  /** {@code [sessions] lease_ttl_seconds} left at its default. */
  private static final Duration TTL = Duration.ofSeconds(30);

  private static final Duration SKEW = TTL.multipliedBy(2);

  @TempDir Path dir;

  private LegioApp node(PostgresTestDatabase database, String name, Clock clock) {
    Workspace workspace = new Workspace(dir.resolve(name));
    WorkspaceInitializer.initialise(workspace);
    LegioApp app =
        LegioApp.open(
            workspace,
            Map.of("LEGIO_DB_URL", database.url(), "LEGIO_NODE_NAME", name),
            clock,
            LegioApp.Lifetime.ONE_SHOT);
    app.store(); // opened, and this node's clock measured against the database's
    return app;
  }

  @Test
  void aNodeWhoseClockRunsAheadTakesNoLiveLeaseAndSeesTheOtherNodeLive() {
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        LegioApp a = node(database, "a", Clock.systemUTC());
        LegioApp ahead = node(database, "ahead", Clock.offset(Clock.systemUTC(), SKEW))) {
      assertThat(a.sessions().tryLease("vorenus", "a", a.clock().instant(), TTL)).isTrue();
      assertThat(a.singletonJobs().runIfHolder("daily-cleanup", () -> {})).isTrue();
      a.store().nodes().announce("a", URI.create("http://127.0.0.1:8741"), a.clock().instant());

      assertThat(ahead.sessions().tryLease("vorenus", "ahead", ahead.clock().instant(), TTL))
          .isFalse();
      assertThat(ahead.singletonJobs().runIfHolder("daily-cleanup", () -> {})).isFalse();
      assertThat(ahead.singletonJobs().holderOf("daily-cleanup"))
          .contains(a.singletonJobs().holder());
      assertThat(ahead.store().nodes().liveNodes(ahead.clock().instant(), TTL))
          .extracting(n -> n.name())
          .containsExactly("a");
      assertThat(ahead.databaseAlignedClock().orElseThrow().offset())
          .isBetween(SKEW.negated().minusSeconds(2), SKEW.negated().plusSeconds(2));
    }
  }

  @Test
  void aNodeWhoseClockRunsBehindTakesOverALeaseOnceItHasReallyRunOut() {
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        LegioApp a = node(database, "a", Clock.systemUTC())) {
      // Taken without a heartbeat: node a stops renewing them, as a node that died would.
      Instant taken = a.clock().instant();
      assertThat(a.store().jobLeases().tryTake("daily-cleanup", "a", taken, TTL)).isTrue();
      assertThat(
              a.store()
                  .sessionsAs(
                      dev.legio.session.jdbc.JdbcSessionStore.LeaseUpkeep.withoutHeartbeat())
                  .tryLease("vorenus", "a", taken, TTL))
          .isTrue();
      MutableClock behindClock = new MutableClock(Instant.now().minus(SKEW));
      try (LegioApp behind = node(database, "behind", behindClock)) {
        assertThat(behind.sessions().tryLease("vorenus", "behind", behind.clock().instant(), TTL))
            .isFalse();
        assertThat(behind.singletonJobs().runIfHolder("daily-cleanup", () -> {})).isFalse();

        behindClock.advance(TTL.plusSeconds(1)); // the leases have run out

        assertThat(behind.sessions().tryLease("vorenus", "behind", behind.clock().instant(), TTL))
            .isTrue();
        assertThat(behind.singletonJobs().runIfHolder("daily-cleanup", () -> {})).isTrue();
      }
    }
  }

  @Test
  void onSqliteTheNodesOwnClockIsUsedAsGiven() {
    Workspace workspace = new Workspace(dir.resolve("sqlite"));
    WorkspaceInitializer.initialise(workspace);
    MutableClock clock = MutableClock.at("2030-01-01T00:00:00Z");
    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock, LegioApp.Lifetime.ONE_SHOT)) {
      app.store();

      assertThat(app.clock()).isSameAs(clock);
      assertThat(app.databaseAlignedClock()).isEmpty();
    }
  }

  @Test
  void theOffsetIsTheDatabasesLeadOverThisMachine() {
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        LegioApp behind =
            node(database, "behind", Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-90)))) {
      DatabaseAlignedClock aligned = behind.databaseAlignedClock().orElseThrow();

      assertThat(aligned.offset()).isBetween(Duration.ofSeconds(88), Duration.ofSeconds(92));
      assertThat(aligned.believed().orElseThrow().roundTrip()).isLessThan(Duration.ofSeconds(2));
      assertThat(Duration.between(Instant.now(), behind.clock().instant()).abs())
          .isLessThan(Duration.ofSeconds(2));
    }
  }
}
