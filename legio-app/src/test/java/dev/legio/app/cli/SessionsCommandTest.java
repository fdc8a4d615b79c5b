package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.testing.HandEdits;
import dev.legio.testing.MutableClock;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import dev.legio.transcript.Transcript;
import dev.legio.transcript.TranscriptEntry;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio sessions list/show/rm/prune} and {@code legio chat --resume}, end to end with the
 * offline model: the session engine writes every turn to its session's transcript.
 */
class SessionsCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private Path workspace;
  private String castra;

  record Result(int code, String out, String err) {}

  private Result legio(Clock clock, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            args,
            new LegioCommand.Context(env, dir, clock),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private Result legio(String... args) {
    return legio(Clock.systemUTC(), args);
  }

  @BeforeEach
  void init() {
    assertThat(legio("init", "legion").code()).isZero();
    workspace = dir.resolve("legion");
    castra = "--castra=" + workspace;
  }

  private FileTranscriptStore transcripts() {
    return new FileTranscriptStore(
        workspace.resolve("castra/transcripts"), workspace, Clock.systemUTC());
  }

  @Test
  void everyTurnIsWrittenToItsSessionsTranscriptInTheWorkspaceFolder() throws Exception {
    assertThat(legio(castra, "say", "-q", "@vorenus scout the north road").code()).isZero();
    assertThat(legio(castra, "say", "-q", "hello legatus").code()).isZero();

    String folder = workspace.toAbsolutePath().toString().replaceAll("[^A-Za-z0-9]", "-");
    try (Stream<Path> files = Files.list(workspace.resolve("castra/transcripts").resolve(folder))) {
      assertThat(files.filter(f -> f.toString().endsWith(".jsonl"))).hasSize(2);
    }
    Result list = legio(castra, "sessions", "list");
    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out()).contains("ID", "OWNER", "MESSAGES", "CREATED", "SIZE");
    assertThat(list.out().lines().skip(1).toList())
        .hasSize(2)
        .anySatisfy(l -> assertThat(l).contains("vorenus").containsPattern(" 2 "))
        .anySatisfy(l -> assertThat(l).contains("legatus"));

    String id =
        transcripts().list().stream()
            .filter(i -> "vorenus".equals(i.owner()))
            .findFirst()
            .orElseThrow()
            .sessionId();
    Transcript t = transcripts().load(id);
    assertThat(t.entries()).extracting(TranscriptEntry::type).containsExactly("user", "assistant");
    assertThat(t.entries().get(0).text()).endsWith("@vorenus scout the north road");
    assertThat(t.entries().get(1).text()).contains("vorenus received");
    assertThat(t.entries().get(1).parentUuid()).isEqualTo(t.entries().get(0).uuid());

    Result show = legio(castra, "sessions", "show", id);
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out())
        .contains("Session " + id + " of vorenus: 2 messages in 1 part(s)")
        .contains("  user\n", "  assistant\n", "    @vorenus scout the north road");

    Result rm = legio(castra, "sessions", "rm", id);
    assertThat(rm.out()).contains("Deleted session " + id + " (1 part)");
    // Still vorenus's current session: listed from its record, without a transcript.
    assertThat(lineOf(legio(castra, "sessions", "list").out(), id))
        .contains(" vorenus ")
        .endsWith(" -");
    Result again = legio(castra, "sessions", "rm", id);
    assertThat(again.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(again.err()).contains("no transcript for session " + id);
  }

  @Test
  void aCondensedSessionShowsItsEarlierBackEndSessionsInShowAndStatus() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout the north road").code()).isZero();
    String id;
    try (dev.legio.store.LegioStore store =
        dev.legio.store.LegioStore.openSqlite(
            new dev.legio.log.jdbc.JdbcMessageLogs.SqliteOptions(
                workspace.resolve("castra/praetorium.db"), 1 << 20, false, 4, Clock.systemUTC()))) {
      dev.legio.session.SessionRecord r = store.sessions().find("vorenus").orElseThrow();
      id = r.sessionId().toString();
      // As two condensings of a Claude CLI session leave it.
      store.sessions().save(r.withBackendSessionId("cli-a").condensed("cli-b").condensed("cli-c"));
    }

    Result show = legio(castra, "sessions", "show", id);
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out()).contains("Back-end session: cli-c (condensed from cli-a, cli-b)");

    Result status = legio(castra, "status");
    assertThat(status.code()).as(status.err()).isZero();
    assertThat(status.out())
        .contains("vorenus: condensed 2 times; earlier back-end sessions: cli-a, cli-b");
  }

  private static String lineOf(String listing, String id) {
    return listing
        .lines()
        .filter(l -> l.startsWith(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + id + " in\n" + listing));
  }

  @Test
  void listShowsEachSessionsContextUseFromItsRecordOrItsTranscriptsLastAnswer() throws Exception {
    // An agent naming gpt-4 (an 8,192-token window) on the offline model: Legio's transcript
    // names the model, so the listing can find its window.
    Path prompt = workspace.resolve("castra/centuriones/vorenus/prompt.md");
    String body = Files.readString(prompt);
    Files.writeString(prompt, body.replaceFirst("---\n", "---\nmodel: gpt-4\n"));
    assertThat(legio(castra, "say", "-q", "@vorenus " + "scout the north road ".repeat(30)).code())
        .isZero();
    String id =
        transcripts().list().stream()
            .filter(i -> "vorenus".equals(i.owner()))
            .findFirst()
            .orElseThrow()
            .sessionId();

    // While it is vorenus's current session, the record's figure (the offline model's own
    // count, against the 200K window it states).
    Result live = legio(castra, "sessions", "list");
    assertThat(live.out()).contains("CONTEXT");
    assertThat(lineOf(live.out(), id)).contains("% of 200K");

    // Once closed, the transcript's: the last answer's usage against gpt-4's window.
    assertThat(legio(castra, "reset", "vorenus").code()).isZero();
    JsonNode usage = transcripts().load(id).entries().get(1).message().path("usage");
    long tokens =
        usage.path("input_tokens").asLong()
            + usage.path("cache_read_input_tokens").asLong()
            + usage.path("cache_creation_input_tokens").asLong()
            + usage.path("output_tokens").asLong();
    assertThat(tokens).isGreaterThan(200);
    Result closed = legio(castra, "sessions", "list");
    assertThat(lineOf(closed.out(), id)).contains(Math.round(100.0 * tokens / 8_192) + "% of 8K");

    // A transcript Claude Code wrote: its last real answer's usage, against the model's window.
    String claudes = "7f0c6a52-2f0e-4d0b-9d55-6c1f1c3f9a01";
    Path file = transcripts().file(claudes);
    Files.writeString(
        file,
        String.join(
                "\n",
                "{\"type\":\"user\",\"uuid\":\"u1\",\"sessionId\":\""
                    + claudes
                    + "\",\"message\":{\"role\":\"user\",\"content\":\"fix the tests\"}}",
                "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\""
                    + claudes
                    + "\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                    + "\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[{\"type\":\"text\","
                    + "\"text\":\"Done.\"}],\"usage\":{\"input_tokens\":1500,"
                    + "\"cache_creation_input_tokens\":2000,\"cache_read_input_tokens\":80000,"
                    + "\"output_tokens\":500,\"service_tier\":\"standard\"}}}")
            + "\n");
    String unknown = "7f0c6a52-2f0e-4d0b-9d55-6c1f1c3f9a02";
    Files.writeString(
        transcripts().file(unknown),
        "{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n");

    Result listing = legio(castra, "sessions", "list");
    assertThat(lineOf(listing.out(), claudes)).contains("42% of 200K");
    assertThat(lineOf(listing.out(), unknown)).containsPattern(" - +\\d+ B$");
  }

  @Test
  void listNamesADamagedSessionRowWithWhatIsWrongAndWhatToDoHidingNoTranscript() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout the north road").code()).isZero();
    assertThat(legio(castra, "say", "-q", "@pullo guard the gate").code()).isZero();
    HandEdits.sqlite(
        workspace.resolve("castra/praetorium.db"),
        "UPDATE sessions SET previous_backend_session_ids = 'oops' WHERE owner = 'vorenus'");

    Result list = legio(castra, "sessions", "list");

    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out()).contains(" vorenus ").contains(" pullo ");
    assertThat(list.out())
        .containsPattern(
            "(?m)^damaged session: the session record of 'vorenus' \\(session [0-9a-f-]+\\) in"
                + " the sqlite database is damaged: previous_backend_session_ids 'oops' is not a"
                + " JSON array of strings .*`legio reset vorenus` clears the row now, or delete"
                + " it: DELETE FROM sessions WHERE owner = 'vorenus'$");
    assertThat(list.out().lines().filter(l -> l.startsWith("damaged session:"))).hasSize(1);
  }

  @Test
  void listAndShowOnlyReadThePraetoriumAndTakeNoMigrationLock() throws Exception {
    assertThat(legio(castra, "say", "-q", "@vorenus scout the north road").code()).isZero();
    Path db = workspace.resolve("castra/praetorium.db");
    Path lock = workspace.resolve("castra/praetorium.db.migrate.lock");
    Files.delete(lock);
    byte[] before = Files.readAllBytes(db);

    Result list = legio(castra, "sessions", "list");
    assertThat(list.code()).as(list.err()).isZero();
    String id = list.out().lines().skip(1).findFirst().orElseThrow().split(" ")[0];
    Result show = legio(castra, "sessions", "show", id);
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out()).contains("scout the north road");

    // What a read-only castra (a 0444 file, a read-only folder, a backup) needs: nothing taken or
    // written, no migration tried.
    assertThat(lock).doesNotExist();
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
  }

  @Test
  void listingAndDeletingTreatAllPartsAsOneSession() {
    FileTranscriptStore small =
        new FileTranscriptStore(
            workspace.resolve("castra/transcripts"), workspace, Clock.systemUTC(), 1_000, 100_000);
    for (int i = 0; i < 10; i++) {
      small.append("long-one", List.of(NewEntry.user(null, "m".repeat(300))));
    }
    int parts = small.info("long-one").parts();
    assertThat(parts).isGreaterThan(2);

    Result list = legio(castra, "sessions", "list");
    assertThat(list.out()).containsOnlyOnce("long-one").contains("(" + parts + " parts)");
    assertThat(legio(castra, "sessions", "rm", "long-one").out())
        .contains("Deleted session long-one (" + parts + " parts)");
    assertThat(small.list()).isEmpty();
  }

  @Test
  void listPagesNewestFirstAndPrintsTheNextPagesCommandUntilTheLast() throws Exception {
    Instant start = Instant.parse("2026-03-01T10:00:00Z");
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 55; i++) {
      String id = String.format("s-%02d", i);
      MutableClock at = new MutableClock(start.plusSeconds(60L * i));
      new FileTranscriptStore(workspace.resolve("castra/transcripts"), workspace, at)
          .append(id, List.of(NewEntry.agentName("vorenus"), NewEntry.user(null, "hi " + i)));
      ids.add(0, id); // newest first
    }

    // Without --limit: the newest 50, then the command that lists the rest.
    Result first = legio(castra, "sessions", "list");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(rows(first.out())).containsExactlyElementsOf(ids.subList(0, 50));
    String more = moreLine(first.out());
    assertThat(more).startsWith("More: legio sessions list --castra " + workspace + " --cursor ");

    // Followed, with --limit: every session once, in order, and no More: line after the last.
    List<String> seen = new java.util.ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Result page =
          cursor == null
              ? legio(castra, "sessions", "list", "--limit", "20")
              : legio(castra, "sessions", "list", "--limit", "20", "--cursor", cursor);
      assertThat(page.code()).as(page.err()).isZero();
      seen.addAll(rows(page.out()));
      String next = moreLine(page.out());
      if (next != null) {
        assertThat(next)
            .startsWith(
                "More: legio sessions list --castra " + workspace + " --limit 20 --cursor ");
      }
      cursor = next == null ? null : next.substring(next.lastIndexOf(' ') + 1);
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactlyElementsOf(ids);

    Result bad = legio(castra, "sessions", "list", "--cursor", "not-a-cursor");
    assertThat(bad.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(bad.err())
        .contains("--cursor 'not-a-cursor' is not a cursor legio sessions list gave")
        .contains("leave --cursor out for the newest sessions");
    Result zero = legio(castra, "sessions", "list", "--limit", "0");
    assertThat(zero.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(zero.err()).contains("--limit must be at least 1");
  }

  /** The session ids of a listing's rows, in order. */
  private static List<String> rows(String listing) {
    return listing
        .lines()
        .skip(1)
        .filter(l -> !l.startsWith("More:") && !l.startsWith("damaged session:"))
        .map(l -> l.split(" ")[0])
        .toList();
  }

  /** The listing's last line when it names the next page's command; null otherwise. */
  private static String moreLine(String listing) {
    List<String> lines = listing.lines().toList();
    String last = lines.get(lines.size() - 1);
    return last.startsWith("More: ") ? last : null;
  }

  @Test
  void badIdsAreRefusedWithTheRule() {
    Result r = legio(castra, "sessions", "show", "../../etc/passwd");
    assertThat(r.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(r.err()).contains("is not a session id", "no path separators");
    Result missing = legio(castra, "sessions", "show", "nothing-here");
    assertThat(missing.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(missing.err()).contains("no transcript for session nothing-here");
  }

  @Test
  void pruneDeletesSessionsUnchangedForLongerThanTheAge() {
    transcripts().append("recent", List.of(NewEntry.user(null, "x")));
    MutableClock later = new MutableClock(Instant.now().plus(Duration.ofDays(31)));
    Result keep = legio(later, castra, "sessions", "prune", "--older-than", "40d");
    assertThat(keep.out()).startsWith("Deleted 0 sessions");
    Result prune = legio(later, castra, "sessions", "prune", "--older-than", "30d");
    assertThat(prune.code()).as(prune.err()).isZero();
    assertThat(prune.out()).startsWith("Deleted 1 session unchanged since");
    assertThat(transcripts().list()).isEmpty();
    assertThat(legio(castra, "sessions", "prune", "--older-than", "soon").err())
        .contains("is not an age");
  }

  @Test
  void chatResumeShowsTheEndOfTheTranscriptAndSendsPlainLinesToItsAgent() throws Exception {
    assertThat(legio(castra, "say", "-q", "@pullo guard the gate").code()).isZero();
    String id = transcripts().list().get(0).sessionId();

    PipedInputStream keyboard = new PipedInputStream(1 << 16);
    PipedOutputStream keys = new PipedOutputStream(keyboard);
    keys.write("anything to report?\n/quit\n".getBytes(StandardCharsets.UTF_8));
    keys.flush();
    ByteArrayOutputStream screen = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {castra, "chat", "--resume"},
            new LegioCommand.Context(env, dir, Clock.systemUTC(), keyboard, screen),
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));
    String shown = Screens.visible(screen.toString(StandardCharsets.UTF_8));

    assertThat(code).as(err.toString()).isZero();
    assertThat(shown)
        .as("err: " + err)
        .contains("Resuming session " + id + " of pullo (2 messages; the last 2 below).")
        .contains("    @pullo guard the gate")
        .contains("Lines without an @mention go to pullo")
        .contains("⚔️ pullo — ")
        .contains("pullo received: \"@pullo anything to report?\"");
  }

  @Test
  void rewindTombstonesTheLastTurnsAndForkStartsANewSession() {
    // The offline model cannot resume, so each `legio say` is a session of its own.
    assertThat(legio(castra, "say", "-q", "@vorenus first order").code()).isZero();
    String id = transcripts().list().get(0).sessionId();
    assertThat(transcripts().load(id).entries()).hasSize(2);

    Result fork = legio(castra, "sessions", "fork", id, "--owner", "pullo");
    assertThat(fork.code()).as(fork.err()).isZero();
    assertThat(fork.out()).startsWith("Forked: session ").contains(" of pullo ");

    Result rewind = legio(castra, "sessions", "rewind", id, "--last", "1");
    assertThat(rewind.code()).as(rewind.err()).isZero();
    assertThat(rewind.out()).contains("2 entries, 1 turns after it left out");
    assertThat(rewind.out()).contains("the next turn starts afresh from the praetorium");
    assertThat(transcripts().load(id).entries()).isEmpty();
    // The fork still holds the turn.
    String forkId = fork.out().split(" ")[2];
    assertThat(transcripts().load(forkId).entries())
        .extracting(dev.legio.transcript.TranscriptEntry::text)
        .anyMatch(t -> t.contains("first order"));

    Result unknown = legio(castra, "sessions", "rewind", id, "--to", UUID.randomUUID().toString());
    assertThat(unknown.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(unknown.err()).contains("no entry");
    assertThat(legio(castra, "sessions", "rewind", id).code()).isEqualTo(LegioCommand.USAGE);
  }

  @Test
  void aLineThatIsNotUtf8AndAFolderAmongTheTranscriptsHideNoSessionFromListShowOrPrune()
      throws Exception {
    assertThat(legio(castra, "say", "-q", "@vorenus first session").code()).isZero();
    assertThat(legio(castra, "say", "-q", "@pullo second session").code()).isZero();
    FileTranscriptStore store = transcripts();
    String damaged = store.list().get(0).sessionId();
    List<String> lines = Files.readAllLines(store.file(damaged));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      bytes.writeBytes((lines.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
      if (i == 0) {
        bytes.writeBytes(new byte[] {'{', '"', 'n', '"', ':', '"', (byte) 0xFF, '"', '}', '\n'});
      }
    }
    Files.write(store.file(damaged), bytes.toByteArray());
    Path stray = store.folder().resolve("stray.jsonl");
    Files.createDirectories(stray);

    Result list = legio(castra, "sessions", "list");
    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out()).contains("vorenus", "pullo");
    assertThat(list.err())
        .isEqualTo(
            "legio: "
                + stray
                + " is not a regular file (a folder?); move it out of the transcripts folder\n");

    Result show = legio(castra, "sessions", "show", damaged);
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out()).contains("assistant");
    assertThat(show.err()).isEqualTo("legio: 1 malformed line(s) skipped\n");

    Result prune = legio(castra, "sessions", "prune", "--older-than", "0s");
    assertThat(prune.code()).as(prune.err()).isZero();
    assertThat(prune.out()).startsWith("Deleted 2 sessions");
  }
}
