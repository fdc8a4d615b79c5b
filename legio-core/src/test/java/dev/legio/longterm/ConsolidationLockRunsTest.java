package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.LegioConfig;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.transcript.FileTranscriptStore;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Consolidation runs and the lock between them: takeovers, stalled holders, killed holders. */
class ConsolidationLockRunsTest {
  @TempDir Path root;
  private final MutableClock clock = MutableClock.at("2026-11-23T12:00:00Z");
  private final ScriptedBackend backend = ScriptedBackend.forgetful();
  private LegioConfig.Memory settings;

  private static final String MEMORY =
      """
      # Memory — vorenus

      ## Auto-extracted memories

      ### Session memories — 2026-11-23
      - [project] F1 the via Flaminia is dry (confidence 0.80)
      """;

  @BeforeEach
  void setUp() throws Exception {
    settings =
        new LegioConfig.Memory(
            root.resolve("memory"), true, 20, 3, 24, 5, Duration.ofMinutes(1), 200);
    Files.createDirectories(folder());
    Files.writeString(folder().resolve("MEMORY.md"), MEMORY);
  }

  private ConsolidationRunner runner() {
    var transcripts =
        new FileTranscriptStore(root.resolve("transcripts"), root.resolve("cwd"), clock);
    return new ConsolidationRunner(
        settings, transcripts, agent -> new ConsolidationRunner.Model(backend, null), clock);
  }

  private Path folder() {
    return root.resolve("memory").resolve("vorenus");
  }

  private static String roads(String content, String facts) {
    return """
        {"files": [{"name": "roads.md", "title": "Roads", "hook": "roads", "content": "%s"}],
         "consolidated_facts": [%s]}
        """
        .formatted(content, facts);
  }

  @Test
  void aRunWhoseStaleLockWasTakenOverWritesNothingSoTheOthersWorkStays() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AtomicReference<ConsolidationResult> second = new AtomicReference<>();
    backend.completion =
        c -> {
          if (calls.incrementAndGet() == 2) {
            // Run B: took over the "stale" lock; files F1 and G.
            return roads("- F1 the via Flaminia is dry\\n- G the ford is passable", "1, 2");
          }
          // Run A's model call takes 75 s. Meanwhile G is extracted and, at 62 s, B runs.
          try {
            Files.writeString(
                folder().resolve("MEMORY.md"),
                "- [project] G the ford is passable (confidence 0.90)\n",
                StandardOpenOption.APPEND);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          clock.advance(Duration.ofSeconds(62));
          second.set(runner().run("vorenus", true, ConsolidationListener.NONE));
          clock.advance(Duration.ofSeconds(13));
          return roads("- F1 the via Flaminia is dry", "1");
        };

    ConsolidationResult first = runner().run("vorenus", true, ConsolidationListener.NONE);

    assertThat(second.get()).isInstanceOf(ConsolidationResult.Completed.class);
    assertThat(second.get().warnings()).anyMatch(w -> w.startsWith("took over a stale lock"));
    assertThat(Files.readString(folder().resolve("roads.md"))).contains("G the ford is passable");
    assertThat(Files.readString(folder().resolve("MEMORY.md"))).doesNotContain("F1", "G the ford");
    assertThat(first).isInstanceOf(ConsolidationResult.Skipped.class);
    assertThat(((ConsolidationResult.Skipped) first).gate()).isEqualTo(ConsolidationGate.LOCK);
    assertThat(((ConsolidationResult.Skipped) first).reason())
        .contains("lost its lock", "wrote nothing more");
    assertThat(folder().resolve(".consolidation_lock")).doesNotExist();
  }

  @Test
  void aLockLeftByAKilledProcessIsTakenOverAtOnceSayingSo() throws Exception {
    String javaBin = ProcessHandle.current().info().command().orElse("java");
    Process holder =
        new ProcessBuilder(
                javaBin,
                "-cp",
                System.getProperty("java.class.path"),
                ConsolidationLockProcess.class.getName(),
                folder().toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      BufferedReader out = holder.inputReader();
      assertThat(out.readLine()).isEqualTo("ready");
      Files.createFile(folder().resolve("go"));
      assertThat(out.readLine()).isEqualTo("won");
      holder.destroyForcibly(); // kill -9: the lock file stays
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(folder().resolve(".consolidation_lock")).exists();
      backend.completion = c -> "{\"files\": []}";

      ConsolidationResult r = runner().run("vorenus", true, ConsolidationListener.NONE);

      assertThat(r).isInstanceOf(ConsolidationResult.Completed.class);
      assertThat(r.warnings())
          .anyMatch(
              w ->
                  w.startsWith("took over the lock taken")
                      && w.contains("pid " + holder.pid())
                      && w.endsWith("that process has ended (killed or crashed)"));
      assertThat(Files.readString(folder().resolve("project.md"))).contains("F1");
    } finally {
      holder.destroyForcibly();
    }
  }

  @Test
  void aLiveHoldersLockNamesTheProcessAndSaysTheFileMayBeDeletedIfItIsGone() throws Exception {
    var mine =
        (ConsolidationLock.Acquired)
            ConsolidationLock.tryAcquire(folder(), settings.dreamLockStale(), clock);
    try {
      ConsolidationResult r = runner().run("vorenus", true, ConsolidationListener.NONE);

      assertThat(r).isInstanceOf(ConsolidationResult.Skipped.class);
      assertThat(((ConsolidationResult.Skipped) r).reason())
          .contains(
              "(0 min ago, by pid " + ProcessHandle.current().pid() + " on ",
              folder().resolve(".consolidation_lock").toString(),
              "if that process is known to be gone, delete the file");
    } finally {
      mine.lock().close();
    }
  }
}
