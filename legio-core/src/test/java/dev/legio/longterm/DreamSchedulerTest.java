package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.LegioConfig;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.transcript.FileTranscriptStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DreamSchedulerTest {
  @TempDir Path root;

  @Test
  void onlyIdleAgentsAreConsolidatedAndGatesStillApply() throws Exception {
    MutableClock clock = MutableClock.at("2026-11-23T12:00:00Z");
    // dream_min_sessions = 0: the gates pass on time alone.
    LegioConfig.Memory settings =
        new LegioConfig.Memory(
            root.resolve("memory"), true, 20, 3, 24, 0, Duration.ofHours(1), 200);
    ScriptedBackend backend = ScriptedBackend.forgetful();
    ConsolidationRunner runner =
        new ConsolidationRunner(
            settings,
            new FileTranscriptStore(root.resolve("t"), root, clock),
            a -> new ConsolidationRunner.Model(backend, null),
            clock);
    String memory =
        "# Memory\n\n## Auto-extracted memories\n\n### Session memories — 2026-11-22\n"
            + "- [decision] March at dawn (confidence 0.90)\n";
    for (String agent : List.of("vorenus", "pullo")) {
      Files.createDirectories(root.resolve("memory").resolve(agent));
      Files.writeString(root.resolve("memory").resolve(agent).resolve("MEMORY.md"), memory);
    }
    Set<String> working = Set.of("pullo");
    try (DreamScheduler scheduler =
        new DreamScheduler(
            runner,
            () -> List.of("vorenus", "pullo"),
            a -> !working.contains(a),
            Duration.ofHours(1))) {
      assertThat(scheduler.checkNow()).isEqualTo(1);
      assertThat(root.resolve("memory/vorenus/decisions.md")).exists();
      assertThat(root.resolve("memory/pullo/decisions.md")).doesNotExist();
      // Vorenus ran just now: the time gate holds it back at the next check.
      assertThat(scheduler.checkNow()).isZero();
    }
  }
}
