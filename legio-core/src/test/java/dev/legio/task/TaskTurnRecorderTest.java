package dev.legio.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.Usage;
import dev.legio.pricing.PriceTable;
import dev.legio.session.CompletedTurn;
import dev.legio.testing.FlakyUsageLedger;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.RetryingUsageWriter;
import dev.legio.usage.TaskRef;
import dev.legio.usage.UsageRecorder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A task turn's usage row survives a short fault of the ledger, as an agent turn's does. */
class TaskTurnRecorderTest {
  @Test
  void aTaskTurnsRowAFailedWriteLeftIsWrittenOnceTheLedgerWorksAgain() throws Exception {
    FlakyUsageLedger ledger = new FlakyUsageLedger();
    UsageRecorder costs =
        new UsageRecorder(
            ledger,
            PriceTable.builtIn(),
            new RetryingUsageWriter.Backoff(Duration.ofMillis(20), Duration.ofMillis(80), 100));
    TaskTurnRecorder recorder = new TaskTurnRecorder(costs, Clock.systemUTC());
    ledger.down = true;

    LedgerEntry entry =
        recorder.completed(
            "campaign:1",
            "run-7",
            CompletedTurn.builder("copywriter", UUID.randomUUID())
                .fresh(true)
                .sent("write")
                .reply("done")
                .model("claude-sonnet-4-5")
                .usage(new Usage(100, 20, 0, 0, false))
                .at(Instant.parse("2026-11-28T10:00:00Z"))
                .backendKind("anthropic")
                .duration(Duration.ofSeconds(2))
                .build());

    assertThat(entry.task()).isEqualTo(new TaskRef("campaign:1", "copywriter", "run-7"));
    assertThat(costs.pending()).isEqualTo(1);
    assertThat(ledger.rows).isEmpty();

    ledger.down = false;
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (costs.pending() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    costs.close();

    assertThat(ledger.rows).containsExactly(entry);
    assertThat(costs.unrecorded()).isEmpty();
  }
}
