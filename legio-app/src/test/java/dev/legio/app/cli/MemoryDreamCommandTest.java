package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.longterm.DreamScheduler;
import dev.legio.testing.LogCapture;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio memory dream} on a workspace with the offline back-end, and serve's schedule. */
class MemoryDreamCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private Path ws;

  record Result(int code, String out, String err) {}

  private Result legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "--castra=" + ws;
    System.arraycopy(args, 0, all, 1, args.length);
    int code = Main.run(all, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private static final String MEMORY =
      """
      # Memory — vorenus

      ## Auto-extracted memories

      ### Session memories — 2026-11-20
      - [preference] Caesar wants scouting reports as bullet points (confidence 0.90)
      - [project] The bridge must be repaired by tomorrow (confidence 0.70)
      - [preference] Caesar wants scouting reports as bullet points (confidence 0.60)
      """;

  private Path memoryOf(String agent) {
    return ws.resolve("castra/memory").resolve(agent);
  }

  @BeforeEach
  void init() throws Exception {
    ws = dir.resolve("legion");
    StringWriter sink = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "legion"},
                env,
                dir,
                new PrintWriter(sink),
                new PrintWriter(sink)))
        .isZero();
    Path toml = ws.resolve("legio.toml");
    Files.writeString(
        toml, Files.readString(toml).replace("kind = \"auto\"", "kind = \"offline\""));
    Files.createDirectories(memoryOf("vorenus"));
    Files.writeString(memoryOf("vorenus").resolve("MEMORY.md"), MEMORY);
  }

  @Test
  void forcedDreamConsolidatesTheExtractedFactsWithTheOfflineModel() throws Exception {
    Result r = legio("memory", "dream", "--force", "--agent", "vorenus");

    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains(
            "vorenus: orient: MEMORY.md 8 lines, 0 topic files\n",
            "vorenus: gather: 3 facts, 0 sessions changed (the offline model consolidates facts"
                + " only)\n",
            "vorenus: consolidate: 2 topic files written deterministically\n",
            "vorenus: prune: MEMORY.md 4 lines\n",
            "vorenus: consolidated 3 facts, 0 sessions changed (deterministically); wrote"
                + " preferences.md, project.md, MEMORY.md; MEMORY.md 4 lines.\n");
    assertThat(Files.readString(memoryOf("vorenus").resolve("MEMORY.md")))
        .isEqualTo(
            """
            # Memory — vorenus

            - [Preferences](preferences.md) — what the people this agent works with prefer
            - [Project](project.md) — facts about the project: architecture, deadlines, dependencies
            """);
    assertThat(Files.readString(memoryOf("vorenus").resolve("project.md")))
        .contains("- The bridge must be repaired by 2026-11-21 (confidence 0.70, 2026-11-20)");
    assertThat(Files.readString(memoryOf("vorenus").resolve("preferences.md")))
        .containsOnlyOnce("bullet points");
    assertThat(memoryOf("vorenus").resolve(".consolidation_state.json")).exists();
  }

  @Test
  void gatesSayWhyAnAgentWasNotConsolidated() throws Exception {
    Result r = legio("memory", "dream");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains(
            "legatus: not consolidated: 0 sessions changed; needs 5 (--force skips this gate)\n",
            "pullo: not consolidated: 0 sessions changed; needs 5 (--force skips this gate)\n",
            "vorenus: not consolidated: 0 sessions changed; needs 5 (--force skips this gate)\n");
    assertThat(Files.readString(memoryOf("vorenus").resolve("MEMORY.md"))).isEqualTo(MEMORY);

    assertThat(legio("memory", "dream", "--force", "--agent", "vorenus").code()).isZero();
    assertThat(legio("memory", "dream", "--agent", "vorenus").out())
        .isEqualTo(
            "vorenus: not consolidated: last run 0 min ago; needs 24 h (--force skips this"
                + " gate)\n");

    Files.writeString(
        memoryOf("vorenus").resolve(".consolidation_lock"),
        Long.toString(Instant.now().getEpochSecond()));
    assertThat(legio("memory", "dream", "--force", "--agent", "vorenus").out())
        .startsWith("vorenus: not consolidated: another consolidation is running since ")
        .contains(
            "(0 min ago, by a process its lock does not name); its lock "
                + memoryOf("vorenus").resolve(".consolidation_lock")
                + " turns stale when not renewed for 60 min; if that process is known to be gone,"
                + " delete the file\n")
        .doesNotContain("--force");
  }

  @Test
  void aFailureExitsNonZeroWithWhatToDo() throws Exception {
    Files.createDirectories(memoryOf("vorenus").resolve("preferences.md"));
    Files.writeString(memoryOf("vorenus").resolve("preferences.md").resolve("x"), "x");
    Result r = legio("memory", "dream", "--force", "--agent", "vorenus");
    assertThat(r.code()).isEqualTo(LegioCommand.FAILURE);
    assertThat(r.err())
        .startsWith("legio: vorenus: consolidation of vorenus failed in consolidate: ")
        .contains("it runs again next time");
    assertThat(Files.readString(memoryOf("vorenus").resolve("MEMORY.md"))).isEqualTo(MEMORY);

    Result unknown = legio("memory", "dream", "--agent", "brutus");
    assertThat(unknown.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(unknown.err())
        .isEqualTo("legio: no agent named 'brutus'. Known agents: legatus, pullo, vorenus.\n");
  }

  @Test
  void aMemoryFileOnlyTheOperatorCanMendIsOneLineAndExitTwo() throws Exception {
    Path memory = memoryOf("pullo").resolve("MEMORY.md");
    Files.createDirectories(memoryOf("pullo"));
    Path elsewhere = Files.writeString(dir.resolve("elsewhere.md"), "- [project] secret\n");
    byte[] latin1 = "# Memory\n- [project] caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    Map<String, String> told =
        Map.of(
            "a link",
            " is a symbolic link; Legio does not follow links in a memory folder (its target is"
                + " never read or sent): replace it with a plain file or remove it\n",
            "a folder",
            " is a folder, not a file; not read: move it out of the memory folder\n",
            "Latin-1",
            " is not valid UTF-8 (line 2 holds a byte that is not; saved as Latin-1?): save it as"
                + " UTF-8 (Legio leaves it untouched)\n");
    for (String kind : List.of("a link", "a folder", "Latin-1")) {
      switch (kind) {
        case "a link" -> Files.createSymbolicLink(memory, elsewhere);
        case "a folder" -> Files.createDirectories(memory);
        default -> Files.write(memory, latin1);
      }
      try (LogCapture logged = new LogCapture()) {
        Result r = legio("memory", "dream", "--force", "--agent", "pullo");

        assertThat(r.code()).as(kind).isEqualTo(LegioCommand.USAGE);
        assertThat(r.err())
            .as(kind)
            .isEqualTo("legio: pullo: not consolidated: " + memory + told.get(kind));
        // Nothing for the console besides that line: no "legio: ERROR: ... failed in orient".
        assertThat(logged.warningsAndErrors()).as(kind).isEmpty();
      }
      assertThat(memoryOf("pullo").resolve(".consolidation_state.json")).doesNotExist();
      if (kind.equals("Latin-1")) {
        assertThat(Files.readAllBytes(memory)).isEqualTo(latin1);
      }
      Files.delete(memory);
    }

    // Among other agents: they are consolidated, and the exit status still says to fix a file.
    Files.createSymbolicLink(memory, elsewhere);
    Result all = legio("memory", "dream", "--force");
    assertThat(all.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(all.out()).contains("vorenus: consolidated 3 facts");
    assertThat(all.err()).startsWith("legio: pullo: not consolidated: ").hasLineCount(1);
  }

  @Test
  void servesScheduleConsolidatesIdleAgents() throws Exception {
    Path toml = ws.resolve("legio.toml");
    Files.writeString(
        toml, Files.readString(toml).replace("dream_min_sessions = 5", "dream_min_sessions = 0"));
    try (LegioApp app = LegioApp.open(new Workspace(ws), env, Clock.systemUTC());
        DreamScheduler dreams = ServeCommand.dreams(app)) {
      // Every agent is idle; only vorenus has facts, but each gets its run (and its state).
      assertThat(dreams.checkNow()).isEqualTo(3);
      assertThat(memoryOf("vorenus").resolve("preferences.md")).exists();
      assertThat(memoryOf("pullo").resolve(".consolidation_state.json")).exists();
      assertThat(dreams.checkNow()).isZero();
    }
  }
}
