package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.backend.ContextUse;
import dev.legio.session.SessionRecord;
import dev.legio.testing.HandEdits;
import dev.legio.workspace.Workspace;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio say}, {@code status}, {@code reset} and {@code chat} end to end, in-process, with
 * the built-in offline model. Every command opens and closes its own Legio, so two commands in a
 * row are a restart.
 */
class SessionCommandsTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private String castra;

  record Result(int code, String out, String err) {}

  private Result legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @BeforeEach
  void init() {
    assertThat(legio("init", "legion").code()).isZero();
    castra = "--castra=" + dir.resolve("legion");
  }

  @Test
  void sayAnswersThroughTheLegatusWithALabelledOfflineReply() {
    Result r = legio(castra, "say", "What", "is", "the", "plan?");

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .startsWith(
            "⚔️ legatus — Orchestrator. Talks with Caesar, plans, and dispatches work to the"
                + " centuriones. [offline model]\n━━━━━━━━━━━━\n")
        .contains("(offline model) legatus received: \"What is the plan?\"")
        .contains("agent status attached");
    assertThat(r.err()).contains("[legatus] ⏳ Thinking...");
  }

  @Test
  void aRestartBetweenTwoSaysGivesTheSecondTurnTheBootstrapAndTheContextNotice() {
    Result first = legio(castra, "say", "-q", "@vorenus scout the north road");
    assertThat(first.out()).contains("Turn 1 of this session; no history entries.");

    Result second = legio(castra, "say", "-q", "@vorenus and the south road?");
    assertThat(second.code()).isZero();
    // The bootstrap holds the first request and vorenus's own answer to it (an agent sees what it
    // said).
    assertThat(second.out())
        .contains(
            "Turn 1 of this session; 2 history entries; context restored from the praetorium.");
    assertThat(second.err()).isEmpty();
  }

  @Test
  void sayToTwoAgentsPrintsBothRepliesUnderTheirHeaders() {
    Result r = legio(castra, "say", "-q", "@vorenus @pullo compare notes");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("⚔️ vorenus — ", "⚔️ pullo — ");
    assertThat(r.out().indexOf("⚔️ vorenus")).isLessThan(r.out().indexOf("⚔️ pullo"));
  }

  @Test
  void aTurnWhoseUsageCannotBeRecordedPrintsTheReplyThenSaysSoAndExitsWithOne() throws Exception {
    dropTheUsageLedger();

    Result r = legio(castra, "say", "-q", "@vorenus scout the north road");

    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).contains("(offline model) vorenus received: \"@vorenus scout the north");
    assertThat(r.err().lines().filter(l -> l.contains("could not be recorded")).toList())
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .startsWith(
                        "legio: the replies above are complete, but the usage of the turn of"
                            + " vorenus could not be recorded (")
                    .contains("no such table: usage_ledger")
                    .contains("restore it from a backup")
                    .doesNotContain("Exception"));
  }

  @Test
  void anUnknownAgentExitsWithTwoAndNamesTheKnownOnes() {
    Result r = legio(castra, "say", "@brutus hello");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("Unknown agent @brutus. Known agents: @legatus, @pullo, @vorenus.");
    assertThat(legio(castra, "history").out()).contains("(no messages visible to caesar)");
  }

  @Test
  void statusShowsEachSessionAndResetClosesOne() {
    legio(castra, "say", "-q", "@vorenus one");
    legio(castra, "say", "-q", "@vorenus two");

    Result status = legio(castra, "status");
    assertThat(status.code()).isZero();
    assertThat(status.out()).startsWith("AGENT");
    // Which back-end and why, as chosen when [backend] kind is set or detected.
    assertThat(status.out()).containsPattern("(?m)^back-end: offline \\(");
    String vorenus = line(status.out(), "vorenus");
    // The second say was a restart on a back-end that cannot resume: a new session, rebuilt once.
    assertThat(vorenus)
        .contains("idle", "active", "offline")
        .matches(".*\\s1\\s+1\\s+offline\\s+\\$0\\.0000$");
    assertThat(line(status.out(), "pullo")).contains("none");

    assertThat(legio(castra, "reset", "vorenus").out()).contains("Reset vorenus");
    assertThat(line(legio(castra, "status").out(), "vorenus")).contains("closed (reset)");
    assertThat(legio(castra, "reset", "vorenus").out()).contains("no active session");
    Result unknown = legio(castra, "reset", "brutus");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo("legio: no agent named 'brutus'. Known agents: legatus, pullo, vorenus.\n");
  }

  @Test
  void aDamagedSessionRowIsNamedByStatusHidingNoOneAndResetClearsIt() {
    legio(castra, "say", "-q", "@vorenus one");
    legio(castra, "say", "-q", "@pullo two");
    HandEdits.sqlite(
        dir.resolve("legion/castra/praetorium.db"),
        "UPDATE sessions SET previous_backend_session_ids = 'oops' WHERE owner = 'vorenus'");

    Result status = legio(castra, "status");

    assertThat(status.code()).as(status.err()).isZero();
    assertThat(line(status.out(), "pullo")).contains("active");
    assertThat(line(status.out(), "vorenus")).contains(" damaged ");
    assertThat(status.out())
        .containsPattern(
            "(?m)^damaged session: the session record of 'vorenus' \\(session [0-9a-f-]+\\) in"
                + " the sqlite database is damaged: previous_backend_session_ids 'oops' is not a"
                + " JSON array of strings \\(.*\\)\\. vorenus's next turn starts a new session in"
                + " its place .*`legio reset vorenus` clears the row now, or delete it: DELETE FROM"
                + " sessions WHERE owner = 'vorenus'$");

    assertThat(legio(castra, "reset", "vorenus").out()).contains("Reset vorenus");
    Result after = legio(castra, "status");
    assertThat(line(after.out(), "vorenus")).contains(" none ");
    assertThat(after.out()).doesNotContain("damaged");
  }

  @Test
  void statusShowsEachSessionsContextUseAsAShareOfItsWindowAndWhenAutoCompactIsOff()
      throws Exception {
    // A small stated window for the offline model, so that one turn is well above 1% of it.
    Path config = dir.resolve("legion/legio.toml");
    Files.writeString(
        config,
        Files.readString(config)
            .replace("[backend.context_windows]\n", "[backend.context_windows]\noffline = 4000\n"));
    assertThat(legio(castra, "say", "-q", "@vorenus " + "scout the north road ".repeat(20)).code())
        .isZero();
    assertThat(legio(castra, "say", "-q", "@pullo hello").code()).isZero();
    ContextUse vorenus;
    try (LegioApp app =
        LegioApp.open(new Workspace(dir.resolve("legion")), env, Clock.systemUTC())) {
      vorenus = app.sessions().find("vorenus").orElseThrow().context();
      // Auto-compact gave up on pullo's session (as a back-end that compacts reports it).
      SessionRecord pullo = app.sessions().find("pullo").orElseThrow();
      app.sessions().save(pullo.withContext(new ContextUse(3_900, 4_000, 3, true)));
    }
    assertThat(vorenus.window()).isEqualTo(4_000);
    assertThat(vorenus.tokens()).isGreaterThan(200);

    Result status = legio(castra, "status");

    assertThat(status.out()).containsPattern("(?m)^AGENT .*INPUT TOKENS +CONTEXT +MESSAGES");
    assertThat(line(status.out(), "vorenus"))
        .contains(Math.round(100.0 * vorenus.tokens() / 4_000) + "% of 4K");
    assertThat(line(status.out(), "pullo")).contains("98% of 4K");
    assertThat(line(status.out(), "legatus")).doesNotContain("%");
    assertThat(status.out())
        .contains("pullo: auto-compact off after 3 failures")
        .doesNotContain("vorenus: auto-compact");

    // A closed session has no context in use any more.
    legio(castra, "reset", "pullo");
    Result after = legio(castra, "status");
    assertThat(line(after.out(), "pullo")).doesNotContain("%");
    assertThat(after.out()).doesNotContain("auto-compact off");
  }

  @Test
  void aBrokenPromptFileIsReportedWithoutHidingTheOtherAgents() throws Exception {
    Path prompt = dir.resolve("legion/castra/centuriones/pullo/prompt.md");
    Files.writeString(prompt, "---\ndescription: [unclosed\n---\nbody\n");
    Result status = legio(castra, "status");
    assertThat(status.out()).contains("vorenus").contains("problem: ").contains("pullo");
    assertThat(legio(castra, "say", "-q", "@vorenus still here?").code()).isZero();
  }

  @Test
  void chatDispatchesLinesAndRunsTheSlashCommands() throws Exception {
    String typed =
        String.join(
            "\n",
            "hello legatus",
            "@vorenus scout ahead",
            "/status",
            "/history 2",
            "/reset vorenus",
            "/reset",
            "/bogus",
            "@vorenus again",
            "/quit",
            "");
    Result chat = chat(typed);
    String shown = chat.out();
    String err = chat.err();

    assertThat(chat.code()).as(err).isZero();
    assertThat(shown)
        .as("err: " + err)
        .contains("Legio chat:")
        .contains("⚔️ legatus — ")
        .contains("(offline model) legatus received: \"hello legatus\"")
        .contains("⚔️ vorenus — ")
        .contains("[vorenus] ⏳ Thinking...")
        .contains("AGENT")
        .containsPattern("AGENT .* COST")
        .containsPattern("legatus .*% of 200K")
        .contains("Reset vorenus: its next request starts a fresh session.")
        .contains("Usage: /reset NAME, or /reset all")
        .contains("Unknown command /bogus");
    // After the reset, vorenus's fresh session is bootstrapped from the log. Asserted on that one
    // line, so that a failure shows it (and the end of the screen) rather than the whole screen.
    String again =
        shown
            .lines()
            .filter(l -> l.contains("vorenus received: \"@vorenus again\""))
            .findFirst()
            .orElse("(no reply to '@vorenus again'; the screen ends with: " + tail(shown) + ")");
    assertThat(again).as("err: " + err).contains("context restored from the praetorium");
    // /history 2 shows the last two messages: vorenus's reply and the request before it.
    assertThat(shown).contains("caesar → vorenus").contains("vorenus → caesar");
  }

  @Test
  void aResetOfAnAgentBusyInAnotherProcessSaysItWaitsThenThatNothingChanged() throws Exception {
    assertThat(legio(castra, "say", "-q", "@vorenus scout").code()).isZero();
    Path toml = dir.resolve("legion/legio.toml");
    Files.writeString(
        toml, Files.readString(toml).replace("lock_wait_seconds = 30", "lock_wait_seconds = 2"));
    try (LegioApp other =
        LegioApp.open(new Workspace(dir.resolve("legion")), env, Clock.systemUTC())) {
      // Another process runs a turn of vorenus: it holds vorenus's lease.
      assertThat(
              other
                  .sessions()
                  .tryLease(
                      "vorenus",
                      "another-process",
                      java.time.Instant.now(),
                      java.time.Duration.ofMinutes(5)))
          .isTrue();

      Result reset = legio(castra, "reset", "vorenus");

      assertThat(reset.code()).as(reset.err()).isEqualTo(1);
      assertThat(reset.err())
          .contains(
              "legio: waiting for a turn of vorenus to end (up to 2 s, [sessions]"
                  + " lock_wait_seconds)...")
          .contains(
              "legio: vorenus's session is busy: a turn or an edit of it, on this Legio node or"
                  + " another, still ran after 2 s")
          .doesNotContain("details in the log file");
      assertThat(other.sessions().find("vorenus").orElseThrow().active()).isTrue();
    }
  }

  @Test
  void aChatWhoseTurnsUsageCannotBeRecordedSaysSoAndExitsWithOne() throws Exception {
    dropTheUsageLedger();

    Result chat = chat("@vorenus scout the north road\n@pullo hold the bridge\n/quit\n");

    assertThat(chat.code()).as(chat.err()).isEqualTo(1);
    assertThat(chat.out())
        .contains("vorenus received: \"@vorenus scout the north road\"")
        .contains("pullo received: \"@pullo hold the bridge\"");
    // Said at the next line read, or at the end: two turns in all, each said once.
    String said = chat.out() + chat.err();
    assertThat(said.lines().filter(l -> l.contains("could not be recorded")).toList())
        .isNotEmpty()
        .allSatisfy(
            line ->
                assertThat(line)
                    .contains("legio: the replies are complete, but the usage of ")
                    .contains("no such table: usage_ledger")
                    .contains("restore it from a backup"))
        .satisfiesAnyOf(
            lines -> assertThat(lines).singleElement().asString().contains("of 2 turns could"),
            lines ->
                assertThat(lines)
                    .hasSize(2)
                    .anySatisfy(l -> assertThat(l).contains("of a turn could"))
                    .anySatisfy(l -> assertThat(l).contains("of another turn could")));
    assertThat(said).doesNotContain("Exception");
  }

  /** {@code legio chat} with {@code typed} on its keyboard. Out is the screen. */
  private Result chat(String typed) throws Exception {
    // A keyboard that stays open after the last line, as a real one does (JLine treats the end
    // of its input as the terminal closing).
    PipedInputStream keyboard = new PipedInputStream(1 << 16);
    PipedOutputStream keys = new PipedOutputStream(keyboard);
    keys.write(typed.getBytes(StandardCharsets.UTF_8));
    keys.flush();
    ByteArrayOutputStream screen = new ByteArrayOutputStream();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {castra, "chat"},
            new LegioCommand.Context(env, dir, Clock.systemUTC(), keyboard, screen),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    return new Result(
        code, Screens.visible(screen.toString(StandardCharsets.UTF_8)) + out, err.toString());
  }

  /** A damaged praetorium: the usage ledger's table is gone. */
  private void dropTheUsageLedger() throws Exception {
    assertThat(legio(castra, "say", "-q", "@pullo hold the bridge").code()).isZero();
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + dir.resolve("legion/castra/praetorium.db"));
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP TABLE usage_ledger");
    }
  }

  private static String tail(String screen) {
    return screen.substring(Math.max(0, screen.length() - 1200));
  }

  private static String line(String table, String owner) {
    return table
        .lines()
        .filter(l -> l.startsWith(owner + " "))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + owner + " in\n" + table));
  }
}
