package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FakeMessagesApi;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code legio say} stopped mid-turn, by a signal, against a model that never answers: it leaves
 * no lease behind when it can (SIGTERM, SIGINT), and when it cannot (SIGKILL) the lease of a dead
 * process is freed at once, by the next request or by {@code legio reset}.
 */
class LeaseProcessTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private FakeMessagesApi model;
  private Path ws;
  private Map<String, String> env;

  @BeforeEach
  void workspaceOnASlowModel() {
    model = FakeMessagesApi.start();
    ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
    Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + model.baseUrl() + "\"");
    // A request that finds the agent busy gives up after 5 s (instead of 30).
    Workspaces.edit(ws, "lock_wait_seconds = 30", "lock_wait_seconds = 5");
    env = Map.of("ANTHROPIC_API_KEY", "test-key-lease-0000");
  }

  @AfterEach
  void stopModel() {
    model.close();
  }

  /** Starts {@code say @vorenus ...} and returns once its request is at the model. */
  private LegioProcess sayMidTurn() throws InterruptedException {
    long before = messagesRequests();
    model.enqueue(FakeMessagesApi.Reply.hang());
    LegioProcess say =
        LegioProcess.start(dir, env, "--castra", ws.toString(), "say", "@vorenus", "report");
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (messagesRequests() == before) {
      assertThat(say.isAlive()).as("say ended early: %s", say.stderr()).isTrue();
      assertThat(System.nanoTime()).as("the request never reached the model").isLessThan(deadline);
      Thread.sleep(50);
    }
    assertThat(leases()).as("the lease is held mid-turn").isEqualTo(1);
    return say;
  }

  private long messagesRequests() {
    return model.requests().stream().filter(FakeMessagesApi.Request::isMessages).count();
  }

  private int leases() {
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + ws.resolve("castra/praetorium.db"));
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM session_leases")) {
      r.next();
      return r.getInt(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"TERM", "INT"})
  void aSignalThatStopsSayMidTurnReleasesItsLeaseBeforeItExits(String signal) throws Exception {
    try (LegioProcess say = sayMidTurn()) {
      say.signal(signal);
      say.awaitExit(LIMIT);
      assertThat(leases()).isZero();
    }
  }

  @Test
  void theLeaseOfAProcessKilledMidTurnIsFreedByTheNextRequestAndByReset() throws Exception {
    try (LegioProcess killed = sayMidTurn()) {
      killed.signal("KILL");
      killed.awaitExit(LIMIT);
    }
    assertThat(leases()).isEqualTo(1);
    model.releaseHangs();

    // The next request does not wait for the dead holder: it is answered.
    LegioProcess next =
        LegioProcess.run(dir, env, LIMIT, "--castra", ws.toString(), "say", "@vorenus", "again");
    assertThat(next.exitCode()).as(next.stderr()).isZero();
    assertThat(next.stdout()).contains("ok");
    assertThat(leases()).isZero();

    try (LegioProcess killed = sayMidTurn()) {
      killed.signal("KILL");
      killed.awaitExit(LIMIT);
    }
    assertThat(leases()).isEqualTo(1);
    LegioProcess reset =
        LegioProcess.run(dir, env, LIMIT, "--castra", ws.toString(), "reset", "vorenus");
    assertThat(reset.exitCode()).as(reset.stderr()).isZero();
    assertThat(reset.stdout()).contains("Freed the lease on vorenus's session").contains("pid ");
    assertThat(leases()).isZero();
  }
}
