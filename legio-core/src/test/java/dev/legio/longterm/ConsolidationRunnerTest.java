package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.config.LegioConfig;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import dev.legio.transcript.Transcript;
import dev.legio.transcript.TranscriptInfo;
import dev.legio.transcript.TranscriptStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsolidationRunnerTest {
  @TempDir Path root;
  private final MutableClock clock = MutableClock.at("2026-11-23T12:00:00Z");
  private FileTranscriptStore files;
  private CountingTranscripts transcripts;
  private final ScriptedBackend backend = ScriptedBackend.forgetful();
  private LegioConfig.Memory settings;
  private final List<String> progress = new CopyOnWriteArrayList<>();
  private final ConsolidationListener listener =
      new ConsolidationListener() {
        @Override
        public void phaseStarted(String agent, ConsolidationPhase phase) {
          progress.add(agent + " " + phase.label());
        }
      };

  /** A real store that counts how often sessions are listed. */
  static final class CountingTranscripts implements TranscriptStore {
    final TranscriptStore store;
    final AtomicInteger lists = new AtomicInteger();

    CountingTranscripts(TranscriptStore store) {
      this.store = store;
    }

    @Override
    public void append(String sessionId, List<? extends NewEntry> entries) {
      store.append(sessionId, entries);
    }

    @Override
    public void create(String sessionId, List<? extends NewEntry> entries) {
      store.create(sessionId, entries);
    }

    @Override
    public void appendToChain(String sessionId, ChainedEntries next) {
      store.appendToChain(sessionId, next);
    }

    @Override
    public Transcript load(String sessionId) {
      return store.load(sessionId);
    }

    @Override
    public List<TranscriptInfo> list() {
      lists.incrementAndGet();
      return store.list();
    }

    @Override
    public int delete(String sessionId) {
      return store.delete(sessionId);
    }
  }

  @BeforeEach
  void setUp() {
    files = new FileTranscriptStore(root.resolve("transcripts"), root.resolve("cwd"), clock);
    transcripts = new CountingTranscripts(files);
    settings = LegioConfig.Memory.defaults(root.resolve("memory"));
  }

  private ConsolidationRunner runner() {
    return new ConsolidationRunner(
        settings, transcripts, agent -> new ConsolidationRunner.Model(backend, null), clock);
  }

  private Path folder(String agent) {
    return root.resolve("memory").resolve(agent);
  }

  private void session(String owner, String text, Instant modified) throws Exception {
    String id = UUID.randomUUID().toString();
    ObjectNode message = JsonNodeFactory.instance.objectNode();
    message.put("role", "user");
    message.put("content", text);
    files.append(
        id,
        List.of(
            new NewEntry.AgentName(owner),
            new NewEntry.Message("user", UUID.randomUUID(), null, message)));
    Files.setLastModifiedTime(files.file(id), FileTime.from(modified));
  }

  private void sessions(String owner, int n, Instant modified) throws Exception {
    for (int i = 0; i < n; i++) {
      session(owner, owner + " session " + i, modified);
    }
  }

  private void memory(String agent, String text) throws Exception {
    Files.createDirectories(folder(agent));
    Files.writeString(folder(agent).resolve("MEMORY.md"), text);
  }

  private String read(String agent, String file) throws Exception {
    return Files.readString(folder(agent).resolve(file));
  }

  private void state(String agent, Instant at) throws Exception {
    Files.createDirectories(folder(agent));
    Files.writeString(
        folder(agent).resolve(".consolidation_state.json"),
        "{\"last_consolidated_at\": " + at.getEpochSecond() + ", \"lock_etag\": null}\n");
  }

  private static final String MEMORY =
      """
      # Memory — vorenus

      - [Roads](roads.md) — the northern roads and their state
      - [Gone](gone.md) — a file that was deleted

      ## Auto-extracted memories

      ### Session memories — 2026-11-20
      - [preference] Caesar wants scouting reports as bullet points (confidence 0.80)
      - [constraint] Never cross the Rubicon without orders (confidence 1.00)
      - [project] The bridge at Ariminum must be repaired by tomorrow (confidence 0.70)
      a line that is no fact

      ### Session memories — 2026-11-21
      - [preference] Caesar wants scouting reports as bullet points. (confidence 0.95)
      - [decision] Chose the coast road last Monday because the pass is snowed in (confidence 0.85)
      - [preference] caesar  wants scouting reports as bullet points (confidence 0.60)
      """;

  // ---------------------------------------------------------------------------------- gates

  @Test
  void aFailingTimeGateStopsBeforeTranscriptsAreListed() throws Exception {
    sessions("vorenus", 6, clock.instant().minus(Duration.ofHours(1)));
    state("vorenus", clock.instant().minus(Duration.ofHours(3)));
    memory("vorenus", MEMORY);

    ConsolidationResult r = runner().run("vorenus", false, listener);

    assertThat(r)
        .isEqualTo(
            new ConsolidationResult.Skipped(
                "vorenus", ConsolidationGate.TIME, "last run 3 h ago; needs 24 h", List.of()));
    assertThat(transcripts.lists).hasValue(0);
    assertThat(folder("vorenus").resolve(".consolidation_lock")).doesNotExist();
    assertThat(read("vorenus", "MEMORY.md")).isEqualTo(MEMORY);
    assertThat(progress).isEmpty();
  }

  @Test
  void theSessionsGateCountsOnlyTheAgentsSessionsChangedSinceTheLastRun() throws Exception {
    Instant last = clock.instant().minus(Duration.ofHours(25));
    state("vorenus", last);
    sessions("vorenus", 5, last.minus(Duration.ofHours(2))); // before the last run
    sessions("vorenus", 2, clock.instant().minus(Duration.ofHours(1)));
    sessions("pullo", 5, clock.instant().minus(Duration.ofHours(1)));
    sessions("telegram:7", 3, clock.instant().minus(Duration.ofHours(1)));

    ConsolidationResult r = runner().run("vorenus", false, listener);

    assertThat(r)
        .isEqualTo(
            new ConsolidationResult.Skipped(
                "vorenus",
                ConsolidationGate.SESSIONS,
                "2 sessions changed since the last run; needs 5",
                List.of()));
    assertThat(transcripts.lists).hasValue(1);
    assertThat(folder("vorenus").resolve(".consolidation_lock")).doesNotExist();

    sessions("vorenus", 3, clock.instant().minus(Duration.ofMinutes(5)));
    assertThat(runner().run("vorenus", false, listener))
        .isInstanceOf(ConsolidationResult.Completed.class);
  }

  @Test
  void neverRunAndTooFewSessionsIsStoppedByTheSessionsGate() throws Exception {
    sessions("vorenus", 1, clock.instant());
    ConsolidationResult r = runner().run("vorenus", false, listener);
    assertThat(((ConsolidationResult.Skipped) r).reason()).isEqualTo("1 session changed; needs 5");
    assertThat(folder("vorenus")).doesNotExist();
  }

  @Test
  void aLiveLockStopsTheRunAndAStaleOneIsTakenOver() throws Exception {
    sessions("vorenus", 5, clock.instant().minus(Duration.ofHours(1)));
    memory("vorenus", MEMORY);
    Instant since = clock.instant().minus(Duration.ofMinutes(20));
    Path lock = folder("vorenus").resolve(".consolidation_lock");
    Files.writeString(lock, Long.toString(since.getEpochSecond()));

    ConsolidationResult r = runner().run("vorenus", false, listener);
    assertThat(r).isInstanceOf(ConsolidationResult.Skipped.class);
    var skipped = (ConsolidationResult.Skipped) r;
    assertThat(skipped.gate()).isEqualTo(ConsolidationGate.LOCK);
    assertThat(skipped.reason())
        .isEqualTo(
            "another consolidation is running since 2026-11-23 11:40 UTC (20 min ago, by a process"
                + " its lock does not name); its lock "
                + lock
                + " turns stale when not renewed for 60 min; if that process is known to be gone,"
                + " delete the file");
    // --force skips time and sessions, never a live lock.
    assertThat(runner().run("vorenus", true, listener))
        .isInstanceOf(ConsolidationResult.Skipped.class);
    assertThat(read("vorenus", "MEMORY.md")).isEqualTo(MEMORY);

    clock.advance(Duration.ofMinutes(41));
    ConsolidationResult taken = runner().run("vorenus", false, listener);
    assertThat(taken).isInstanceOf(ConsolidationResult.Completed.class);
    assertThat(taken.warnings()).anyMatch(w -> w.startsWith("took over a stale lock from"));
    assertThat(lock).doesNotExist();
  }

  @Test
  void forceSkipsTheTimeAndSessionsGates() throws Exception {
    state("vorenus", clock.instant().minus(Duration.ofMinutes(10)));
    memory("vorenus", MEMORY);
    ConsolidationResult r = runner().run("vorenus", true, listener);
    assertThat(r).isInstanceOf(ConsolidationResult.Completed.class);
    assertThat(progress)
        .containsExactly(
            "vorenus orient", "vorenus gather", "vorenus consolidate", "vorenus prune");
  }

  @Test
  void ofTwoConcurrentRunsExactlyOneWins() throws Exception {
    memory("vorenus", MEMORY);
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    backend.completion =
        c -> {
          inside.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return "no JSON today";
        };
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<ConsolidationResult> first =
          pool.submit(() -> runner().run("vorenus", true, listener));
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
      Future<ConsolidationResult> second =
          pool.submit(() -> runner().run("vorenus", true, listener));
      ConsolidationResult refused = second.get(10, TimeUnit.SECONDS);
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(ConsolidationResult.Completed.class);
      assertThat(refused).isInstanceOf(ConsolidationResult.Skipped.class);
      assertThat(((ConsolidationResult.Skipped) refused).gate()).isEqualTo(ConsolidationGate.LOCK);
    } finally {
      pool.shutdownNow();
    }
  }

  // ------------------------------------------------------------------------ state file

  @Test
  void theStateFileIsWrittenExactlyAfterASuccessfulRun() throws Exception {
    memory("vorenus", MEMORY);
    runner().run("vorenus", true, listener);
    assertThat(read("vorenus", ".consolidation_state.json"))
        .isEqualTo(
            "{\"last_consolidated_at\": "
                + clock.instant().getEpochSecond()
                + ", \"lock_etag\": null}\n");
    assertThat(ConsolidationState.read(folder("vorenus")))
        .isEqualTo(new ConsolidationState.Read(new ConsolidationState(clock.instant()), null));
    // And the time gate now holds for 24 h.
    clock.advance(Duration.ofHours(23));
    sessions("vorenus", 5, clock.instant());
    assertThat(((ConsolidationResult.Skipped) runner().run("vorenus", false, listener)).reason())
        .isEqualTo("last run 23 h ago; needs 24 h");
  }

  @Test
  void aMalformedStateIsReportedKeptAsACopyAndTreatedAsNeverRun() throws Exception {
    memory("vorenus", MEMORY);
    Path state = folder("vorenus").resolve(".consolidation_state.json");
    for (String bad : List.of("{oops", "[1,2]", "{\"last_consolidated_at\": \"yesterday\"}")) {
      Files.writeString(state, bad);
      ConsolidationState.Read read = ConsolidationState.read(folder("vorenus"));
      assertThat(read.state().lastConsolidatedAt()).as(bad).isNull();
      assertThat(read.problem())
          .as(bad)
          .contains(state.toString(), "is malformed", "never consolidated");
    }
    Files.writeString(state, "{oops");
    sessions("vorenus", 5, clock.instant().minus(Duration.ofHours(1)));

    ConsolidationResult r = runner().run("vorenus", false, listener);

    assertThat(r).isInstanceOf(ConsolidationResult.Completed.class);
    assertThat(r.warnings())
        .anyMatch(w -> w.contains("is malformed (not JSON") && w.contains("a copy is kept as"));
    assertThat(folder("vorenus").resolve(".consolidation_state.json.malformed"))
        .hasContent("{oops");
    assertThat(read("vorenus", ".consolidation_state.json"))
        .startsWith("{\"last_consolidated_at\": ");
  }

  // ------------------------------------------------------------- deterministic consolidation

  @Test
  void deterministicConsolidationFilesFactsByCategoryDedupedWithAbsoluteDates() throws Exception {
    memory("vorenus", MEMORY);
    Files.writeString(
        folder("vorenus").resolve("roads.md"), "# Roads\n\nThe via Flaminia is dry.\n");

    ConsolidationResult r = runner().run("vorenus", true, listener);

    var done = (ConsolidationResult.Completed) r;
    assertThat(done.byModel()).isFalse();
    assertThat(done.factsConsolidated()).isEqualTo(6);
    assertThat(done.filesWritten())
        .containsExactlyInAnyOrder(
            "preferences.md",
            "constraints.md",
            "project.md",
            "decisions.md",
            "unsorted.md",
            "MEMORY.md");
    assertThat(read("vorenus", "preferences.md"))
        .isEqualTo(
            "# Preferences\n\n"
                + "- Caesar wants scouting reports as bullet points. (confidence 0.95, 2026-11-21)\n");
    assertThat(read("vorenus", "project.md"))
        .isEqualTo(
            "# Project\n\n- The bridge at Ariminum must be repaired by 2026-11-21 (confidence 0.70,"
                + " 2026-11-20)\n");
    assertThat(read("vorenus", "decisions.md"))
        .contains(
            "- Chose the coast road Monday 2026-11-16 because the pass is snowed in (confidence"
                + " 0.85, 2026-11-21)");
    assertThat(read("vorenus", "unsorted.md"))
        .contains("## From the session memories of 2026-11-20\n\na line that is no fact\n");
    assertThat(read("vorenus", "MEMORY.md"))
        .isEqualTo(
            """
            # Memory — vorenus

            - [Roads](roads.md) — the northern roads and their state
            - [Constraints](constraints.md) — hard requirements and limits
            - [Decisions](decisions.md) — decisions taken, and why
            - [Preferences](preferences.md) — what the people this agent works with prefer
            - [Project](project.md) — facts about the project: architecture, deadlines, dependencies
            - [Unsorted](unsorted.md) — lines of MEMORY.md kept here by consolidation
            """);
    assertThat(done.indexLines()).isEqualTo(8);
    assertThat(folder("vorenus").resolve("gone.md")).doesNotExist();
    assertThat(folder("vorenus").resolve(".consolidation_lock")).doesNotExist();

    // New facts later: merged into the same files, a duplicate raising the confidence in place.
    String more =
        read("vorenus", "MEMORY.md")
            + """

            ## Auto-extracted memories

            ### Session memories — 2026-11-23
            - [constraint] Never cross the Rubicon without orders (confidence 0.50)
            - [preference] Caesar wants scouting reports as bullet points (confidence 0.99)
            - [preference] Reports go out before dawn (confidence 0.75)
            """;
    Files.writeString(folder("vorenus").resolve("MEMORY.md"), more);
    runner().run("vorenus", true, listener);
    assertThat(read("vorenus", "preferences.md"))
        .isEqualTo(
            "# Preferences\n\n"
                + "- Caesar wants scouting reports as bullet points (confidence 0.99, 2026-11-23)\n"
                + "- Reports go out before dawn (confidence 0.75, 2026-11-23)\n");
    assertThat(read("vorenus", "constraints.md"))
        .isEqualTo(
            "# Constraints\n\n- Never cross the Rubicon without orders (confidence 1.00,"
                + " 2026-11-20)\n");
    assertThat(read("vorenus", "MEMORY.md")).doesNotContain("Auto-extracted");
  }

  @Test
  void textOfOtherKindsInMemoryMdIsKept() throws Exception {
    memory(
        "vorenus",
        """
        # Vorenus's memory

        Written by hand: check the roads first.
        - [Roads](roads.md) — roads

        ## Notes

        Keep this section.

        ## Auto-extracted memories

        - [pattern] Undated fact (confidence 0.50)
        """);

    runner().run("vorenus", true, listener);

    assertThat(read("vorenus", "MEMORY.md"))
        .isEqualTo(
            """
            # Vorenus's memory

            - [Patterns](patterns.md) — recurring patterns and conventions

            Written by hand: check the roads first.

            ## Notes

            Keep this section.
            """);
    assertThat(read("vorenus", "patterns.md"))
        .isEqualTo("# Patterns\n\n- Undated fact (confidence 0.50)\n");
  }

  @Test
  void manyFactsLeaveMemoryMdFarUnderTheLimit() throws Exception {
    StringBuilder text = new StringBuilder("# Memory — pullo\n\n## Auto-extracted memories\n");
    String[] labels = {"preference", "project", "pattern", "decision", "constraint"};
    for (int day = 1; day <= 20; day++) {
      text.append("\n### Session memories — 2026-10-")
          .append(String.format("%02d", day))
          .append('\n');
      for (int i = 0; i < 50; i++) {
        text.append("- [")
            .append(labels[i % 5])
            .append("] Fact number ")
            .append(i % 25)
            .append(" (confidence 0.")
            .append(String.format("%02d", day))
            .append(")\n");
      }
    }
    memory("pullo", text.toString());
    assertThat(text.toString().lines().count()).isGreaterThan(1000);

    var done = (ConsolidationResult.Completed) runner().run("pullo", true, listener);

    assertThat(done.factsConsolidated()).isEqualTo(1000);
    List<String> lines = Files.readAllLines(folder("pullo").resolve("MEMORY.md"));
    assertThat(lines).hasSizeLessThan(settings.indexMaxLines()).hasSize(7);
    // 25 distinct facts, 5 per category, each kept once with its highest confidence (day 20).
    List<String> patterns = Files.readAllLines(folder("pullo").resolve("patterns.md"));
    assertThat(patterns).hasSize(2 + 5);
    assertThat(patterns.subList(2, 7)).allMatch(l -> l.endsWith("(confidence 0.20, 2026-10-20)"));
  }

  @Test
  void anOverlongIndexIsKeptWithinTheLimit() throws Exception {
    settings =
        new LegioConfig.Memory(root.resolve("memory"), true, 20, 3, 24, 5, Duration.ofHours(1), 20);
    StringBuilder text = new StringBuilder("# Memory — pullo\n\nSome notes of my own.\n");
    for (int i = 0; i < 30; i++) {
      memory("pullo", "");
      Files.writeString(folder("pullo").resolve("topic-" + i + ".md"), "# Topic " + i + "\n");
      text.append("- [Topic ").append(i).append("](topic-").append(i).append(".md) — hook\n");
    }
    memory("pullo", text.toString());

    var done = (ConsolidationResult.Completed) runner().run("pullo", true, listener);

    List<String> lines = Files.readAllLines(folder("pullo").resolve("MEMORY.md"));
    assertThat(lines).hasSizeLessThanOrEqualTo(20);
    assertThat(done.indexLines()).isEqualTo(lines.size());
    assertThat(lines.getLast()).contains("more topic files in this folder are not listed");
    assertThat(read("pullo", "unsorted.md")).contains("Some notes of my own.");
    assertThat(done.warnings()).anyMatch(w -> w.contains("left out of the index"));
  }

  @Test
  void factsAppendedWhileItRunsStayInMemoryMd() throws Exception {
    memory("vorenus", MEMORY);
    backend.completion =
        c -> {
          try {
            Files.writeString(
                folder("vorenus").resolve("MEMORY.md"),
                "- [pattern] Scouts report at the third hour (confidence 0.66)\n",
                java.nio.file.StandardOpenOption.APPEND);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          return "{\"files\": []}";
        };

    runner().run("vorenus", true, listener);

    assertThat(read("vorenus", "MEMORY.md"))
        .endsWith(
            "## Auto-extracted memories\n\n### Session memories — 2026-11-21\n"
                + "- [pattern] Scouts report at the third hour (confidence 0.66)\n");
    assertThat(read("vorenus", "preferences.md")).contains("bullet points");
  }

  @Test
  void aFailureMidRunLeavesMemoryMdAndTheStateAsTheyWere() throws Exception {
    memory("vorenus", MEMORY);
    // A folder where a topic file should go: writing it fails.
    Files.createDirectories(folder("vorenus").resolve("project.md"));
    Files.writeString(folder("vorenus").resolve("project.md").resolve("x"), "x");

    ConsolidationResult r = runner().run("vorenus", true, listener);

    assertThat(r).isInstanceOf(ConsolidationResult.Failed.class);
    var failed = (ConsolidationResult.Failed) r;
    assertThat(failed.phase()).isEqualTo(ConsolidationPhase.CONSOLIDATE);
    assertThat(failed.message()).contains("failed in consolidate", "it runs again next time");
    assertThat(read("vorenus", "MEMORY.md")).isEqualTo(MEMORY);
    assertThat(folder("vorenus").resolve(".consolidation_state.json")).doesNotExist();
    assertThat(folder("vorenus").resolve(".consolidation_lock")).doesNotExist();
  }

  @Test
  void aTopicFileThatIsNotUtf8StopsTheRunRefusedAndIsLeftAsItWas() throws Exception {
    memory("vorenus", MEMORY);
    byte[] latin1 = "- Caesar likes caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    Files.write(folder("vorenus").resolve("preferences.md"), latin1);

    ConsolidationResult r = runner().run("vorenus", true, listener);

    assertThat(r).isInstanceOf(ConsolidationResult.Refused.class);
    var refused = (ConsolidationResult.Refused) r;
    assertThat(refused.phase()).isEqualTo(ConsolidationPhase.ORIENT);
    assertThat(refused.reason())
        .isEqualTo(
            folder("vorenus").resolve("preferences.md")
                + " is not valid UTF-8 (line 1 holds a byte that is not; saved as Latin-1?): save"
                + " it as UTF-8 (Legio leaves it untouched)");
    assertThat(Files.readAllBytes(folder("vorenus").resolve("preferences.md"))).isEqualTo(latin1);
    assertThat(read("vorenus", "MEMORY.md")).isEqualTo(MEMORY);
    assertThat(folder("vorenus").resolve(".consolidation_state.json")).doesNotExist();
    assertThat(folder("vorenus").resolve(".consolidation_lock")).doesNotExist();
  }

  @Test
  void anAgentWithNothingToConsolidateGetsNoEmptyMemoryMd() throws Exception {
    var done = (ConsolidationResult.Completed) runner().run("pullo", true, listener);
    assertThat(done.filesWritten()).isEmpty();
    assertThat(done.indexLines()).isZero();
    assertThat(folder("pullo").resolve("MEMORY.md")).doesNotExist();
    assertThat(folder("pullo").resolve(".consolidation_state.json")).exists();
  }

  @Test
  void channelsAndPathTricksHaveNoMemoryFolder() {
    for (String bad : List.of("telegram:1", "../pullo", "Vorenus", "", "caesar")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner().run(bad, true, listener))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not an agent's name");
    }
  }

  // ------------------------------------------------------------------ model consolidation

  @Test
  void theModelsTopicFilesAreWrittenAndFactsItDidNotTakeGoDeterministically() throws Exception {
    memory("vorenus", MEMORY);
    Files.writeString(folder("vorenus").resolve("old.md"), "# Old\n\nThe old camp.\n");
    session("vorenus", "The ford at Ariminum is passable since this morning.", clock.instant());
    backend.completion =
        c ->
            """
            Here you are:
            ```json
            {"files": [{"name": "roads.md", "title": "Roads", "hook": "roads, fords and bridges",
              "content": "- The ford at Ariminum is passable (2026-11-23).\\n- Bridge repair due 2026-11-21."}],
             "remove": ["old.md"],
             "consolidated_facts": [3]}
            ```
            """;

    var done = (ConsolidationResult.Completed) runner().run("vorenus", true, listener);

    assertThat(done.byModel()).isTrue();
    assertThat(done.filesRemoved()).containsExactly("old.md");
    assertThat(folder("vorenus").resolve("old.md")).doesNotExist();
    assertThat(read("vorenus", "roads.md"))
        .isEqualTo(
            "# Roads\n\n- The ford at Ariminum is passable (2026-11-23).\n- Bridge repair due"
                + " 2026-11-21.\n");
    // Fact 3 (the bridge, a project fact) went to roads.md; the others deterministically.
    assertThat(folder("vorenus").resolve("project.md")).doesNotExist();
    assertThat(read("vorenus", "constraints.md")).contains("Never cross the Rubicon");
    assertThat(read("vorenus", "MEMORY.md"))
        .contains("- [Roads](roads.md) — roads, fords and bridges\n")
        .doesNotContain("old.md", "Auto-extracted");

    ScriptedBackend.Completion asked = backend.completions.getFirst();
    assertThat(asked.systemPrompt()).contains("relative date", "YYYY-MM-DD", "consolidated_facts");
    assertThat(asked.prompt())
        .contains(
            "3. [project] The bridge at Ariminum must be repaired by 2026-11-21 (confidence 0.70,"
                + " extracted 2026-11-20)",
            "user: The ford at Ariminum is passable since this morning.",
            "<file name=\"old.md\">",
            "- [Roads](roads.md)");
  }

  @Test
  void hostileModelOutputIsRefusedAndNothingLeavesTheFolder() throws Exception {
    memory("vorenus", MEMORY);
    String huge = "x".repeat(ConsolidationTopic.MAX_CONTENT_CHARS + 1);
    backend.completion =
        c ->
            """
            {"files": [
              {"name": "../escape.md", "content": "out"},
              {"name": "MEMORY.md", "content": "# pwned"},
              {"name": "memory.md", "content": "# pwned"},
              {"name": ".hidden.md", "content": "hidden"},
              {"name": "sub/inner.md", "content": "inner"},
              {"name": "huge.md", "content": "%s"},
              {"name": "ok.md", "title": "Ok](evil.md) [x", "hook": "line one\\nline two", "content": "fine"}
            ], "remove": ["../../etc/passwd", "MEMORY.md", "missing.md"], "consolidated_facts": [1, 99, -1]}
            """
                .formatted(huge);

    var done = (ConsolidationResult.Completed) runner().run("vorenus", true, listener);

    assertThat(root.resolve("memory").resolve("escape.md")).doesNotExist();
    assertThat(folder("vorenus").resolve(".hidden.md")).doesNotExist();
    assertThat(folder("vorenus").resolve("sub")).doesNotExist();
    assertThat(folder("vorenus").resolve("huge.md")).doesNotExist();
    assertThat(folder("vorenus").resolve("memory.md")).doesNotExist();
    assertThat(read("vorenus", "MEMORY.md"))
        .startsWith("# Memory — vorenus\n")
        .doesNotContain("pwned");
    assertThat(read("vorenus", "MEMORY.md"))
        .contains("- [Okevil.md x](ok.md) — line one line two\n");
    assertThat(done.warnings())
        .filteredOn(w -> w.startsWith("refused from the model's answer"))
        .hasSize(10)
        .anyMatch(
            w -> w.contains("consolidated_facts [1]: not trusted because a file was refused"));
    // Fact 1 was claimed, but files were refused: all facts went deterministically.
    assertThat(read("vorenus", "preferences.md")).contains("(confidence 0.95, 2026-11-21)");
  }

  @Test
  void anUnusableAnswerOrAFailedRequestFallsBackToDeterministicConsolidation() throws Exception {
    for (boolean fails : new boolean[] {false, true}) {
      memory("vorenus", MEMORY);
      backend.completion =
          c -> {
            if (fails) {
              throw new dev.legio.backend.BackendException("model overloaded");
            }
            return "I would rather not.";
          };
      var done = (ConsolidationResult.Completed) runner().run("vorenus", true, listener);
      assertThat(done.byModel()).isFalse();
      assertThat(done.warnings())
          .anyMatch(
              w ->
                  w.contains(fails ? "did not answer (model overloaded)" : "holds no JSON object")
                      && w.endsWith("consolidated deterministically"));
      assertThat(read("vorenus", "preferences.md")).contains("bullet points");
      assertThat(read("vorenus", "MEMORY.md")).doesNotContain("Auto-extracted");
    }
  }

  @Test
  void withoutAModelTranscriptsAreNotRead() throws Exception {
    memory("vorenus", MEMORY);
    sessions("vorenus", 5, clock.instant());
    List<String> details = new ArrayList<>();
    var done =
        (ConsolidationResult.Completed)
            runner()
                .run(
                    "vorenus",
                    false,
                    new ConsolidationListener() {
                      @Override
                      public void phaseFinished(String a, ConsolidationPhase p, String detail) {
                        details.add(p.label() + ": " + detail);
                      }
                    });
    assertThat(done.sessionsGathered()).isEqualTo(5);
    assertThat(details)
        .contains(
            "gather: 6 facts, 5 sessions changed (the scripted model consolidates facts only)");
    assertThat(backend.completions).isEmpty();
  }
}
