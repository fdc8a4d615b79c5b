package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a SIGTERM does to the CLI processes of a Legio that drains before it exits. */
class ProcessRegistryExitTest {
  @Test
  void aDrainingLegiosCliProcessesOutliveTheSignalUntilTheDrainEndsOrItsTimeIsUp()
      throws Exception {
    LegioWithACli other = LegioWithACli.start(DrainsForThreeSeconds.class);
    Process legio = other.legio();
    ProcessHandle cli = other.cli();
    try {
      long signalled = System.nanoTime();
      legio.destroy(); // SIGTERM
      Thread.sleep(1_000);
      assertThat(cli.isAlive()).as("the turn in flight may still finish").isTrue();

      assertThat(cli.onExit().get(20, TimeUnit.SECONDS).isAlive()).isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - signalled))
          .isGreaterThanOrEqualTo(Duration.ofMillis(2_500));
      assertThat(legio.waitFor(20, TimeUnit.SECONDS)).isTrue();
    } finally {
      ProcessRegistry.killTree(cli);
      legio.destroyForcibly();
    }
  }

  /** A Legio whose drain never ends, with 3 s for its CLI processes to finish at exit. */
  public static final class DrainsForThreeSeconds {
    public static void main(String[] args) throws Exception {
      ProcessRegistry.killAtExitAfter(new CountDownLatch(1), Duration.ofSeconds(3));
      ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.NONE);
      CliProcess cli =
          CliProcess.start(
              List.of("sleep", "300"), Path.of("."), Map.of(), Set.of(), registry, "sleep");
      System.out.println("cli=" + cli.pid());
      System.out.flush();
      Thread.sleep(300_000);
    }
  }
}
