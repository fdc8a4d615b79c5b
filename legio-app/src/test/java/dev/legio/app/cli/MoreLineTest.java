package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.server.SessionPages;
import dev.legio.testing.MutableClock;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code More:} line of {@code legio sessions list}, pasted into a real POSIX shell ({@code
 * /bin/sh}): it lists the next page of the same workspace in pages of the same size, whatever
 * characters the workspace's path holds; and {@code --limit} is bounded as the API's {@code limit}
 * is.
 */
class MoreLineTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();

  private CliResult legio(String... args) {
    return CliResult.run(env, dir, Clock.systemUTC(), args);
  }

  /** A workspace at {@code folder} with {@code count} sessions, the ids newest first. */
  private List<String> workspaceWithSessions(Path folder, int count) {
    CliResult init = legio("init", folder.toString());
    assertThat(init.code()).as(init.err()).isZero();
    Instant start = Instant.parse("2026-03-01T10:00:00Z");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = String.format("s-%02d", i);
      new FileTranscriptStore(
              folder.resolve("castra/transcripts"),
              folder,
              new MutableClock(start.plusSeconds(60L * i)))
          .append(id, List.of(NewEntry.agentName("vorenus"), NewEntry.user(null, "hi " + i)));
      ids.add(0, id);
    }
    return ids;
  }

  /** The words /bin/sh makes of {@code line}, as a pasted command's arguments. */
  private static List<String> shellWords(String line) throws Exception {
    Process sh =
        new ProcessBuilder("/bin/sh", "-c", "set -- " + line + "; printf '%s\\0' \"$@\"")
            .redirectErrorStream(true)
            .start();
    String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(sh.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(sh.exitValue()).as(out).isZero();
    return Arrays.asList(out.split("\0"));
  }

  @Test
  void theMoreLinePastedIntoAShellListsTheNextPageOfTheSameWorkspace() throws Exception {
    Path castra = dir.resolve("my legion $HOME 'a' *");
    List<String> ids = workspaceWithSessions(castra, 5);
    workspaceWithSessions(dir.resolve("other"), 3); // the current directory's workspace: not it
    env.put("LEGIO_HOME", dir.resolve("other").toString());

    // --castra after the command, as the user may type it.
    CliResult first = legio("sessions", "list", "--castra", castra.toString(), "--limit", "2");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(rows(first.out())).containsExactlyElementsOf(ids.subList(0, 2));

    List<String> seen = new ArrayList<>(rows(first.out()));
    String more = moreLine(first.out());
    int pages = 1;
    while (more != null) {
      assertThat(more).startsWith("More: legio sessions list --castra '");
      List<String> words = shellWords(more.substring("More: ".length()));
      assertThat(words.subList(0, 7))
          .containsExactly(
              "legio", "sessions", "list", "--castra", castra.toString(), "--limit", "2");
      CliResult next = legio(words.subList(1, words.size()).toArray(String[]::new));
      assertThat(next.code()).as(next.err()).isZero();
      assertThat(rows(next.out())).hasSizeLessThanOrEqualTo(2);
      seen.addAll(rows(next.out()));
      more = moreLine(next.out());
      pages++;
    }
    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactlyElementsOf(ids);
  }

  @Test
  void withoutCastraOrLimitTheMoreLineNamesNeither() throws Exception {
    List<String> ids = workspaceWithSessions(dir.resolve("legion"), 55);
    env.put("LEGIO_HOME", dir.resolve("legion").toString());

    CliResult first = legio("sessions", "list");
    String more = moreLine(first.out());
    assertThat(more).startsWith("More: legio sessions list --cursor ");
    List<String> words = shellWords(more.substring("More: ".length()));
    assertThat(words).hasSize(5);
    assertThat(rows(legio(words.subList(1, 5).toArray(String[]::new)).out()))
        .containsExactlyElementsOf(ids.subList(50, 55));
  }

  @Test
  void aLimitOverTheApisMaximumIsRefusedNamingIt() {
    workspaceWithSessions(dir.resolve("legion"), 1);
    String castra = "--castra=" + dir.resolve("legion");

    CliResult over =
        legio(castra, "sessions", "list", "--limit", String.valueOf(SessionPages.MAX_LIMIT + 1));

    assertThat(over.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(over.err())
        .isEqualTo(
            "legio: --limit must be at least 1 and at most 1000 (the most a page lists, as GET"
                + " /api/v1/sessions); its More: line lists the rest\n");
    CliResult most =
        legio(castra, "sessions", "list", "--limit", String.valueOf(SessionPages.MAX_LIMIT));
    assertThat(most.code()).as(most.err()).isZero();
    assertThat(rows(most.out())).containsExactly("s-00");
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
}
