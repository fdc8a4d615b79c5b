package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A small {@code legio bench cluster}: two real {@code legio serve} processes on one PostgreSQL,
 * one of them SIGKILLed and restarted while clients post; nothing acknowledged is lost, nothing is
 * answered twice, no session is driven by two nodes at once. Runs under CI=true (fails there
 * without PostgreSQL); elsewhere skipped without a server.
 */
class ClusterBenchmarkTest {
  @Test
  void aNodeKilledMidRunLosesNothingAndItsSessionsMoveWithinTheLeaseTime() throws Exception {
    try (PostgresTestDatabase reachable = PostgresTestDatabase.create()) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      // Paced so that the run outlasts the first kill whatever the machine's speed.
      ClusterBenchmark.Figures f =
          new ClusterBenchmark(
                  new ClusterBenchmark.Settings(
                      2,
                      4,
                      160,
                      Duration.ofSeconds(3),
                      Duration.ofMillis(100),
                      false,
                      PostgresTestDatabase.baseUrl()),
                  new PrintWriter(out, true),
                  new PrintWriter(err, true))
              .run();

      String report = out + "\n" + err;
      assertThat(f.kills()).as(report).isGreaterThanOrEqualTo(1);
      assertThat(f.requestsOk()).as(report).isEqualTo(160);
      assertThat(f.requestsFailedFinal()).as(report).isZero();
      assertThat(f.messagesLost()).as(report).isZero();
      assertThat(f.repliesMissing()).as(report).isZero();
      assertThat(f.repliesDuplicated()).as(report).isZero();
      assertThat(f.doubleDrivenTurns()).as(report).isZero();
      assertThat(f.failoverP99Seconds()).as(report).isLessThanOrEqualTo(35);
      assertThat(out.toString())
          .contains("requests_ok=160")
          .contains("messages_lost=0")
          .contains("failover_p99_s=");
    }
  }
}
