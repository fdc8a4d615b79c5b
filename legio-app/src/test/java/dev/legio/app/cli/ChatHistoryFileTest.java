package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code castra/.chat_history} after a real {@code legio chat}. */
class ChatHistoryFileTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();

  private int legio(String... args) {
    return Main.run(
        args, env, dir, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
  }

  private int chat(String typed) throws Exception {
    PipedInputStream keyboard = new PipedInputStream(1 << 16);
    PipedOutputStream keys = new PipedOutputStream(keyboard);
    keys.write(typed.getBytes(StandardCharsets.UTF_8));
    keys.flush();
    return Main.run(
        new String[] {"--castra=" + dir.resolve("legion"), "chat"},
        new LegioCommand.Context(
            env, dir, Clock.systemUTC(), keyboard, new ByteArrayOutputStream()),
        new PrintWriter(new StringWriter(), true),
        new PrintWriter(new StringWriter(), true));
  }

  @Test
  void theHistoryOfWhatCaesarTypedIsReadableByItsOwnerOnly() throws Exception {
    assertThat(legio("init", "legion")).isZero();

    assertThat(chat("/status\n/quit\n")).isZero();

    Path history = dir.resolve("legion/castra/.chat_history");
    assertThat(Files.readString(history)).contains("/status");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(history)))
        .isEqualTo("rw-------");
  }

  @Test
  void aHistoryLeftReadableByOthersOrRewrittenByJLineIsMadeOwnerOnly() throws Exception {
    assertThat(legio("init", "legion")).isZero();
    Path history = dir.resolve("legion/castra/.chat_history");
    // A line JLine cannot read: it deletes the file and writes it anew.
    Files.writeString(history, "an old line\n");
    Files.setPosixFilePermissions(history, PosixFilePermissions.fromString("rw-r--r--"));

    assertThat(chat("/quit\n")).isZero();

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(history)))
        .isEqualTo("rw-------");
  }
}
