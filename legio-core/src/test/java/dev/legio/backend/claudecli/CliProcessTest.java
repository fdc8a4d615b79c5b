package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
}
