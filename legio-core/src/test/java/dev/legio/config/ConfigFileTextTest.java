package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code legio.toml} that is not UTF-8 text (a binary file, Latin-1, UTF-16) is refused with the
 * file, the offending byte's offset, line and column, and what to do (it used to say only "Input
 * length = 1").
 */
class ConfigFileTextTest {
  @TempDir Path dir;

  private static byte[] bytes(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }

  static Stream<Arguments> notText() {
    return Stream.of(
        Arguments.of(
            "a Latin-1 letter in a comment",
            bytes("history_window = 50\n# caf\u00e9\n"),
            "FILE is not UTF-8 text: byte 25 (line 2, column 6) is 0xE9, which UTF-8 does not allow"
                + " there. Save the file as UTF-8 text."),
        Arguments.of(
            "a PNG image",
            bytes("\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR"),
            "FILE is not UTF-8 text: byte 0 (line 1, column 1) is 0x89, which UTF-8 does not allow"
                + " there. Save the file as UTF-8 text."),
        Arguments.of(
            "UTF-16 text",
            "history_window = 5\n".getBytes(StandardCharsets.UTF_16LE),
            "FILE is not UTF-8 text: byte 1 (line 1, column 2) is a NUL byte, so this looks like a"
                + " binary file (or one saved as UTF-16). Save the file as UTF-8 text."),
        Arguments.of(
            "a NUL byte on line 3",
            bytes("a = 1\nb = 2\nc\u0000 = 3\n"),
            "FILE is not UTF-8 text: byte 13 (line 3, column 2) is a NUL byte, so this looks like a"
                + " binary file (or one saved as UTF-16). Save the file as UTF-8 text."),
        Arguments.of(
            "a character cut off at the end",
            bytes("# \u00e2\u0082"),
            "FILE is not UTF-8 text: byte 2 (line 1, column 3) is 0xE2 0x82, which UTF-8 does not allow"
                + " there. Save the file as UTF-8 text."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notText")
  void aFileThatIsNotUtf8TextSaysWhereAndWhat(String what, byte[] content, String expected)
      throws Exception {
    Path file = dir.resolve("legio.toml");
    Files.write(file, content);
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(expected.replace("FILE", file.toString()))
        .hasMessageNotContaining("Input length");
  }

  @Test
  void utf8TextBeyondAsciiIsRead() throws Exception {
    Path file = dir.resolve("legio.toml");
    Files.writeString(
        file, "# César's legio \u2014 \uD83C\uDFDB\n[mcp]\nhttp_bind = \"127.0.0.1\"\n");
    assertThat(ConfigLoader.load(file, Map.of()).mcp().httpBind()).isEqualTo("127.0.0.1");
  }

  @Test
  void aByteOrderMarkAtTheStartIsAcceptedAsWindowsEditorsWriteIt() throws Exception {
    Path file = dir.resolve("legio.toml");
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] toml = "history_window = 5\n".getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[bom.length + toml.length];
    System.arraycopy(bom, 0, content, 0, bom.length);
    System.arraycopy(toml, 0, content, bom.length, toml.length);
    Files.write(file, content);

    assertThat(ConfigLoader.load(file, Map.of()).historyWindow()).isEqualTo(5);
  }
}
