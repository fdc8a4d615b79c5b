package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliProcessTest {
  @TempDir Path dir;

  @Test
  void theProcessGetsLegiosEnvironmentLessWhatIsWithheldPlusWhatIsAdded() throws Exception {
    assertThat(System.getenv("PATH")).as("this test withholds a variable the JVM has").isNotNull();
    List<String> seen = new ArrayList<>();
    try (ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.NONE);
        CliProcess process =
            CliProcess.start(
                List.of("/usr/bin/env"),
                dir,
                Map.of("DISABLE_AUTOUPDATER", "1"),
                Set.of("PATH"),
                registry,
                "env")) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (true) {
        Optional<CliProcess.Line> line = process.next(deadline);
        if (line.isEmpty() || !(line.get() instanceof CliProcess.Line.Out out)) {
          break;
        }
        seen.add(out.text());
      }
    }
    assertThat(seen).contains("DISABLE_AUTOUPDATER=1").noneMatch(l -> l.startsWith("PATH="));
    if (System.getenv("HOME") != null) {
      assertThat(seen).contains("HOME=" + System.getenv("HOME")); // the rest is passed on
    }
  }

  /**
   * A turn runs on a virtual thread and waits for its CLI's next line until the turn's deadline.
   * Other CLI processes sitting silent (idle persistent sessions), more than the machine has cores,
   * must not keep that wait from ending at its deadline, even a deadline past the 30 s after which
   * the JDK's virtual-thread scheduler retires the spare carriers it added for blocked ones (so
   * this test takes 35 s). Without the rule in {@link CliProcess}'s comment the wait ends only when
   * some process writes a line: here never, so the test's own bound fails it.
   */
  @Test
  void aWaitForTheNextLineEndsAtItsDeadlineWhileOtherCliProcessesSitSilent() {
    int silent = Runtime.getRuntime().availableProcessors() + 1;
    Duration timeout = Duration.ofSeconds(35);
    List<CliProcess> processes = new ArrayList<>();
    try (ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.NONE)) {
      try {
        for (int i = 0; i <= silent; i++) {
          processes.add(
              CliProcess.start(
                  List.of("sleep", "600"), dir, Map.of(), Set.of(), registry, "silent-" + i));
        }
        CliProcess waited = processes.get(0);
        CompletableFuture<Optional<CliProcess.Line>> next = new CompletableFuture<>();
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    next.complete(waited.next(System.nanoTime() + timeout.toNanos()));
                  } catch (Throwable t) {
                    next.completeExceptionally(t);
                  }
                });
        assertThat(next)
            .as("the wait ended by its deadline, not by another process's output")
            .succeedsWithin(timeout.plusSeconds(60))
            .isEqualTo(Optional.empty());
      } finally {
        processes.forEach(CliProcess::kill);
      }
    }
  }
}
