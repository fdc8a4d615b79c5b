package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.LegioConfig;
import dev.legio.testing.MutableClock;
import dev.legio.transcript.FileTranscriptStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extraction's appends to {@code MEMORY.md} and consolidation's rewrite of it (prune) exclude each
 * other through {@link MemoryFolder#locked}: an append made while consolidations run is never lost,
 * whether it comes from another thread or another process.
 */
class ConsolidationConcurrentAppendTest {
  @TempDir Path root;
  private final MutableClock clock = MutableClock.at("2026-11-23T12:00:00Z");
  private Path memoryDir;
  private ConsolidationRunner runner;

  @BeforeEach
  void setUp() {
    memoryDir = root.resolve("memory");
    runner =
        new ConsolidationRunner(
            LegioConfig.Memory.defaults(memoryDir),
            new FileTranscriptStore(root.resolve("transcripts"), root.resolve("cwd"), clock),
            agent -> null, // no model: deterministic consolidation, the fastest run
            clock);
  }

  /** Fact {@code n}: a distinct text, in one of the five categories. */
  static ExtractedFact fact(int n) {
    FactCategory category = FactCategory.values()[n % FactCategory.values().length];
    return new ExtractedFact(category, "Camp rule " + n + " holds for the legion", 0.8);
  }

  private static final LocalDate DAY = LocalDate.of(2026, 11, 23);

  @Test
  void appendsFromAnotherThreadDuringConsolidationsAreNeverLost() throws Exception {
    int count = 300;
    MemoryFolder folder = MemoryFolder.of(memoryDir, "vorenus");
    CompletableFuture<Void> appends =
        CompletableFuture.runAsync(
            () -> {
              for (int n = 0; n < count; n++) {
                folder.append(DAY, List.of(fact(n)));
              }
            });
    int runs = consolidateUntil(appends::isDone);
    appends.get(10, TimeUnit.SECONDS);
    assertThat(runs).isGreaterThan(1);
    assertEveryFactKept(count);
  }

  @Test
  void appendsFromAnotherProcessDuringConsolidationsAreNeverLost() throws Exception {
    int count = 200;
    Files.createDirectories(memoryDir);
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                MemoryAppendProcess.class.getName(),
                memoryDir.toString(),
                "vorenus",
                "0",
                Integer.toString(count))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("ready");
      int runs = consolidateUntil(() -> !child.isAlive());
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).isZero();
      assertThat(out.readLine()).isEqualTo("appended");
      assertThat(runs).isGreaterThan(1);
    } finally {
      child.destroyForcibly();
    }
    assertEveryFactKept(count);
  }

  /** Forced consolidations, one after another, until {@code done}; then one more. */
  private int consolidateUntil(java.util.function.BooleanSupplier done) {
    int runs = 0;
    boolean last = false;
    while (!last) {
      last = done.getAsBoolean();
      ConsolidationResult result = runner.run("vorenus", true, ConsolidationListener.NONE);
      assertThat(result).isInstanceOf(ConsolidationResult.Completed.class);
      runs++;
    }
    return runs;
  }

  /**
   * Each fact is in MEMORY.md (appended after the last prune) or in a topic file (consolidated),
   * and after the final run nothing is left in MEMORY.md's extracted section.
   */
  private void assertEveryFactKept(int count) throws Exception {
    Path folder = memoryDir.resolve("vorenus");
    StringBuilder all = new StringBuilder();
    List<String> topicFiles = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.md")) {
      for (Path f : files) {
        all.append(Files.readString(f)).append('\n');
        topicFiles.add(f.getFileName().toString());
      }
    }
    List<Integer> lost = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      if (!all.toString().contains("Camp rule " + n + " holds for the legion")) {
        lost.add(n);
      }
    }
    assertThat(lost).as("facts lost (files: %s)", topicFiles).isEmpty();
    assertThat(MemoryFolder.of(memoryDir, "vorenus").facts())
        .as("the final run consolidated every fact")
        .isEmpty();
  }
}
