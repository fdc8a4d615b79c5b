package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio memory ...} with {@code --as}, and {@code /share} in the chat. */
class MemoryCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private String castra;

  record Result(int code, String out, String err) {}

  private Result legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = castra;
    System.arraycopy(args, 0, all, 1, args.length);
    int code = Main.run(all, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @BeforeEach
  void init() {
    castra = "--castra=" + dir.resolve("legion");
    StringWriter sink = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "legion"},
                env,
                dir,
                new PrintWriter(sink),
                new PrintWriter(sink)))
        .isZero();
  }

  @Test
  void publishListShowSearchRevokeAndClearWithEachCallersRights() {
    assertThat(legio("memory", "publish", "edictum", "no-force-push", "Never", "force-push.").out())
        .isEqualTo("Published edictum no-force-push as caesar.\n");
    assertThat(
            legio("memory", "publish", "actum", "north-road", "Bridge out.", "--as", "vorenus")
                .out())
        .isEqualTo("Published actum north-road as vorenus.\n");
    assertThat(
            legio("memory", "publish", "commentarium", "diary", "Muddy", "roads", "--as", "pullo")
                .out())
        .isEqualTo("Published commentarium diary of pullo as pullo.\n");

    Result list = legio("memory", "list");
    assertThat(list.out()).contains("edicta\n  no-force-push", "acta\n  north-road");
    Result asVorenus = legio("memory", "list", "--as", "vorenus");
    assertThat(asVorenus.out()).contains("commentarii of vorenus: none");
    assertThat(legio("memory", "list", "commentarii", "--agent", "pullo").out()).contains("diary");
    assertThat(legio("memory", "show", "actum", "north-road").out())
        .contains("actum north-road", "vorenus, 20", "    Bridge out.");
    assertThat(legio("memory", "show", "actum", "north-road", "--xml").out())
        .startsWith("<actum name=\"north-road\">");

    // An agent's rights: no edicta, no other agent's commentarii, no clearing.
    Result denied = legio("memory", "publish", "edictum", "mine", "x", "--as", "vorenus");
    assertThat(denied.code()).isEqualTo(2);
    assertThat(denied.err())
        .contains("only the legatus (or caesar) may publish edicta; vorenus may not");
    Result peek =
        legio("memory", "show", "commentarium", "diary", "--as", "vorenus", "--agent", "pullo");
    assertThat(peek.code()).isEqualTo(2);
    assertThat(peek.err()).contains("vorenus can reach only its own commentarii");
    assertThat(legio("memory", "search", "muddy", "--as", "vorenus").out())
        .isEqualTo("No matches.\n");
    assertThat(legio("memory", "search", "muddy").out())
        .contains("commentarium diary of pullo: Muddy roads");
    assertThat(legio("memory", "clear", "acta", "--all", "--as", "pullo").code()).isEqualTo(2);

    Result trick =
        legio("memory", "show", "commentarium", "../pullo/commentarii/diary", "--as", "vorenus");
    assertThat(trick.code()).isEqualTo(2);
    assertThat(trick.err()).contains("is not a valid name");

    assertThat(legio("memory", "revoke", "no-force-push", "--reason", "Obsolete").out())
        .isEqualTo("Revoked edictum no-force-push.\n");
    assertThat(legio("memory", "show", "edictum", "no-force-push").out())
        .contains("(revoked)", "revoked by caesar", ": Obsolete");
    assertThat(legio("memory", "clear", "acta", "north-road").out())
        .isEqualTo("Deleted acta: north-road.\n");
    assertThat(legio("memory", "clear", "commentarii", "--all", "--agent", "pullo").out())
        .isEqualTo("Deleted commentarii: diary.\n");
    assertThat(legio("memory", "clear", "acta").err()).contains("name one entry, or give --all");
    assertThat(legio("memory", "list", "nonsense").err())
        .contains("unknown memory store 'nonsense'");
    assertThat(legio("memory", "list", "--as", "brutus").err())
        .contains("no centurio named 'brutus'");
  }

  @Test
  void shareHandsOneReplyToAnotherAgentsContext() throws Exception {
    String typed =
        String.join(
            "\n",
            "/share",
            "/share last @pullo",
            "@vorenus scout the ford",
            "/share last @pullo",
            "/share #1 @nobody",
            "/share #999 @pullo",
            "@pullo what did vorenus find?",
            // The dumb terminal copies the screen on a thread of its own; later turns give it
            // time to copy what the assertions read.
            "@vorenus anything else?",
            "/quit",
            "");
    PipedInputStream keyboard = new PipedInputStream(1 << 16);
    PipedOutputStream keys = new PipedOutputStream(keyboard);
    keys.write(typed.getBytes(StandardCharsets.UTF_8));
    keys.flush();
    ByteArrayOutputStream screen = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {castra, "chat"},
            new LegioCommand.Context(env, dir, Clock.systemUTC(), keyboard, screen),
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));
    String shown = Screens.visible(screen.toString(StandardCharsets.UTF_8));
    assertThat(code).as(err.toString()).isZero();
    assertThat(shown)
        .contains(
            "Shared #2 (vorenus) with pullo as #3: it is in their context from their next message.")
        .contains("Unknown agent @nobody. Known agents: @pullo, @vorenus.")
        .contains("No message #999 in the log.")
        .contains("Usage: /share ID @name")
        .contains("No reply yet in this chat to share.");

    // pullo now sees vorenus's reply (and not the request it answered), and its session got it.
    Result pullo = legio("history", "--viewer", "pullo", "--xml");
    assertThat(pullo.out())
        .contains("sender=\"caesar\"", "Caesar shares a message from vorenus (#2):")
        .contains("vorenus received: \"@vorenus scout the ford\"")
        .doesNotContain(">@vorenus scout the ford<");
    // pullo's fresh session received the shared message as its one history entry.
    assertThat(legio("history").out())
        .contains(
            "pullo received: \"@pullo what did vorenus find?\". Turn 1 of this session; 1 history"
                + " entry; context restored from the praetorium");
  }
}
