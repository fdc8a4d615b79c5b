package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.LegioConfig;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.transcript.FileTranscriptStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a consolidation makes of the model's answer: no fact is pruned unless it is written
 * somewhere, the report says who wrote the files, and nothing behind a link reaches the model.
 */
class ConsolidationModelAnswerTest {
  @TempDir Path root;
  private final MutableClock clock = MutableClock.at("2026-11-23T12:00:00Z");
  private final ScriptedBackend backend = ScriptedBackend.forgetful();
  private final Map<ConsolidationPhase, String> details = new ConcurrentHashMap<>();
  private final ConsolidationListener listener =
      new ConsolidationListener() {
        @Override
        public void phaseFinished(String agent, ConsolidationPhase phase, String detail) {
          details.put(phase, detail);
        }
      };
  private ConsolidationRunner runner;

  private static final String MEMORY =
      """
      # Memory — vorenus

      ## Auto-extracted memories

      ### Session memories — 2026-11-21
      - [project] F1 the via Flaminia is dry (confidence 0.80)
      - [project] F2 the bridge at Ariminum holds (confidence 0.80)
      - [decision] F3 the legion marches by the coast (confidence 0.90)
      """;

  @BeforeEach
  void setUp() throws Exception {
    LegioConfig.Memory settings = LegioConfig.Memory.defaults(root.resolve("memory"));
    var transcripts =
        new FileTranscriptStore(root.resolve("transcripts"), root.resolve("cwd"), clock);
    runner =
        new ConsolidationRunner(
            settings, transcripts, agent -> new ConsolidationRunner.Model(backend, null), clock);
    Files.createDirectories(folder());
    Files.writeString(folder().resolve("MEMORY.md"), MEMORY);
  }

  private Path folder() {
    return root.resolve("memory").resolve("vorenus");
  }

  /** Every topic file's text, joined. */
  private String allTopicFiles() throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.list(folder())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".md")).toList()) {
        if (!f.getFileName().toString().equals("MEMORY.md")) {
          all.append(Files.readString(f));
        }
      }
    }
    return all.toString();
  }

  @Test
  void factsClaimedForARefusedFileAreFiledDeterministicallyNotLost() throws Exception {
    String huge = "- F1 F2 F3 roads\\n" + "x".repeat(ConsolidationTopic.MAX_CONTENT_CHARS + 2_500);
    backend.completion =
        c ->
            """
            {"files": [
              {"name": "misc.md", "title": "Misc", "hook": "misc", "content": "misc"},
              {"name": "roads.md", "title": "Roads", "hook": "roads", "content": "%s"}
            ], "consolidated_facts": [1, 2, 3]}
            """
                .formatted(huge);

    var done = (ConsolidationResult.Completed) runner.run("vorenus", true, listener);

    assertThat(folder().resolve("roads.md")).doesNotExist();
    assertThat(Files.readString(folder().resolve("misc.md"))).contains("misc");
    assertThat(Files.readString(folder().resolve("MEMORY.md"))).doesNotContain("Auto-extracted");
    assertThat(allTopicFiles())
        .contains(
            "F1 the via Flaminia is dry",
            "F2 the bridge at Ariminum holds",
            "F3 the legion marches by the coast");
    assertThat(done.warnings())
        .anyMatch(w -> w.contains("roads.md") && w.contains("characters, more than"))
        .anyMatch(w -> w.contains("consolidated_facts [1, 2, 3]: not trusted"));
  }

  @Test
  void aRefusedRemoveDoesNotUndoTheFactsTheModelWrote() throws Exception {
    backend.completion =
        c ->
            """
            {"files": [{"name": "roads.md", "title": "Roads", "hook": "roads",
               "content": "- F1 the via Flaminia is dry\\n- F2 the bridge at Ariminum holds"}],
             "remove": ["missing.md"], "consolidated_facts": [1, 2]}
            """;

    runner.run("vorenus", true, listener);

    // Facts 1 and 2 are in roads.md; only fact 3 is filed the deterministic way.
    assertThat(folder().resolve("project.md")).doesNotExist();
    assertThat(Files.readString(folder().resolve("decisions.md"))).contains("F3");
    assertThat(details.get(ConsolidationPhase.CONSOLIDATE))
        .isEqualTo("2 topic files written: 1 by the model, 1 deterministically");
  }

  @Test
  void theReportSaysTheFilesWereWrittenDeterministicallyWhenTheModelWroteNone() {
    backend.completion = c -> "{\"files\": []}";

    var done = (ConsolidationResult.Completed) runner.run("vorenus", true, listener);

    assertThat(done.filesWritten()).contains("project.md", "decisions.md");
    assertThat(details.get(ConsolidationPhase.CONSOLIDATE))
        .isEqualTo("2 topic files written deterministically (the model's answer wrote no file)");
  }

  @Test
  void aTopicFileThatIsASymbolicLinkIsSkippedAndNeverSentToTheModel() throws Exception {
    Path secret = root.resolve("secret.txt");
    Files.writeString(secret, "THE-SECRET-KEY");
    Files.createSymbolicLink(folder().resolve("notes.md"), secret);
    Files.createSymbolicLink(folder().resolve("inside.md"), folder().resolve("MEMORY.md"));
    Files.writeString(folder().resolve("roads.md"), "# Roads\n\nThe via Appia.\n");
    backend.completion = c -> "{\"files\": []}";

    var done = (ConsolidationResult.Completed) runner.run("vorenus", true, listener);

    String prompt = backend.completions.getFirst().prompt();
    assertThat(prompt).contains("The via Appia.").doesNotContain("THE-SECRET-KEY");
    assertThat(prompt).doesNotContain("<file name=\"notes.md\">", "<file name=\"inside.md\">");
    assertThat(done.warnings())
        .anyMatch(w -> w.startsWith("skipped: ") && w.contains("notes.md is a symbolic link"))
        .anyMatch(w -> w.contains("inside.md is a symbolic link"));
    assertThat(Files.readString(folder().resolve("MEMORY.md"))).doesNotContain("THE-SECRET-KEY");
    assertThat(secret).hasContent("THE-SECRET-KEY");
    assertThat(folder().resolve("notes.md")).isSymbolicLink();
  }

  @Test
  void aMemoryMdThatIsASymbolicLinkStopsTheRunRefusedWithoutReadingIt() throws Exception {
    Path secret = root.resolve("secret.md");
    Files.writeString(secret, "- [project] THE-SECRET-KEY (confidence 0.90)\n");
    Files.delete(folder().resolve("MEMORY.md"));
    Files.createSymbolicLink(folder().resolve("MEMORY.md"), secret);
    backend.completion = c -> "{\"files\": []}";

    ConsolidationResult r = runner.run("vorenus", true, listener);

    assertThat(r).isInstanceOf(ConsolidationResult.Refused.class);
    var refused = (ConsolidationResult.Refused) r;
    assertThat(refused.phase()).isEqualTo(ConsolidationPhase.ORIENT);
    assertThat(refused.reason())
        .contains("MEMORY.md is a symbolic link", "replace it with a plain file or remove it")
        .doesNotContain("IOException");
    assertThat(backend.completions).isEmpty();
    assertThat(secret).hasContent("- [project] THE-SECRET-KEY (confidence 0.90)\n");
  }
}
