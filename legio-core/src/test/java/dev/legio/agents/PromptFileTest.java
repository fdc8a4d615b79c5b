package dev.legio.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptFileTest {
  @TempDir Path dir;

  private AgentProfile parse(String content) {
    return PromptFile.parse("vorenus", dir.resolve("prompt.md"), bytes(content));
  }

  private static byte[] bytes(String content) {
    return content.getBytes(StandardCharsets.UTF_8);
  }

  private String file() {
    return dir.resolve("prompt.md").toString();
  }

  @Test
  void readsEveryKeyAndThePromptAfterTheFrontMatter() {
    AgentProfile p =
        parse(
            """
            ---
            description: Technology analysis specialist.
            model: claude-sonnet-4-5   # a comment
            backend: ollama
            history_window: 20
            max_input_tokens: 100000
            ---


            # Vorenus
            You are Lucius Vorenus.
            """);

    assertThat(p.name()).isEqualTo("vorenus");
    assertThat(p.description()).isEqualTo("Technology analysis specialist.");
    assertThat(p.model()).isEqualTo("claude-sonnet-4-5");
    assertThat(p.backend()).isEqualTo("ollama");
    assertThat(p.historyWindow()).hasValue(20);
    assertThat(p.maxInputTokens()).hasValue(100_000);
    assertThat(p.prompt()).isEqualTo("# Vorenus\nYou are Lucius Vorenus.\n");
    assertThat(p.file()).isEqualTo(dir.resolve("prompt.md"));
  }

  @Test
  void anUnknownBackEndKindIsRefusedListingTheKinds() {
    assertThatThrownBy(() -> parse("---\nbackend: gpt\n---\nHello\n"))
        .isInstanceOf(AgentConfigException.class)
        .hasMessageContaining("backend")
        .hasMessageContaining("\"offline\", \"claude-cli\", \"anthropic\", \"openai\", \"ollama\"")
        .hasMessageContaining("gpt");
  }

  @Test
  void optionalKeysMayBeLeftOutOrEmpty() {
    AgentProfile p = parse("---\nmodel:\n---\nHello\n");

    assertThat(p.description()).isEmpty();
    assertThat(p.model()).isNull();
    assertThat(p.historyWindow()).isEmpty();
    assertThat(p.maxInputTokens()).isEmpty();
    assertThat(parse("---\n---\nHello").prompt()).isEqualTo("Hello");
  }

  @Test
  void aFileWithoutFrontMatterIsAllPrompt() {
    String content = "\n# Pullo\n---\nYou are Titus Pullo.\n";
    AgentProfile p = parse(content);

    assertThat(p.description()).isEmpty();
    assertThat(p.prompt()).isEqualTo(content);
    assertThat(parse("").prompt()).isEmpty();
  }

  @Test
  void crlfLineEndingsWork() {
    AgentProfile p =
        parse(
            "---\r\ndescription: Field engineer.\r\nhistory_window: 30\r\n---\r\n\r\nLine one\r\n");

    assertThat(p.description()).isEqualTo("Field engineer.");
    assertThat(p.historyWindow()).hasValue(30);
    assertThat(p.prompt()).isEqualTo("Line one\n");
  }

  @Test
  void aByteOrderMarkIsIgnored() {
    assertThat(parse("\uFEFF---\ndescription: Marked\n---\nBody").description())
        .isEqualTo("Marked");
  }

  @Test
  void theDescriptionBecomesOneTrimmedLine() {
    assertThat(parse("---\ndescription: |\n  Two\n  lines\n---\n").description())
        .isEqualTo("Two lines");
  }

  @Test
  void theHashIsTheSha256OfTheFileBytes() throws Exception {
    String content = "---\ndescription: x\n---\nBody\n";
    String expected =
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes(content)));

    assertThat(parse(content).promptHash()).isEqualTo(expected).matches("[0-9a-f]{64}");
    assertThat(parse(content).promptHash()).isEqualTo(parse(content).promptHash());
    assertThat(parse(content + " ").promptHash()).isNotEqualTo(expected);
    // The same text with other line endings is another file.
    assertThat(parse(content.replace("\n", "\r\n")).promptHash()).isNotEqualTo(expected);
  }

  @Test
  void readTakesTheFileFromDisk() throws Exception {
    Path file = dir.resolve("prompt.md");
    Files.writeString(file, "---\ndescription: On disk\n---\nBody");

    assertThat(PromptFile.read("pullo", file).description()).isEqualTo("On disk");
    assertThatThrownBy(() -> PromptFile.read("pullo", dir.resolve("missing.md")))
        .isInstanceOf(AgentConfigException.class)
        .hasMessageStartingWith(dir.resolve("missing.md") + ": cannot read the file");
  }

  @Test
  void anUnknownKeyIsRefusedWithTheKnownKeys() {
    assertThatThrownBy(() -> parse("---\ndescription: x\ncolour: red\n---\n"))
        .isInstanceOf(AgentConfigException.class)
        .hasMessage(
            file()
                + ": unknown front matter key 'colour'; known keys: backend, description,"
                + " history_window, max_input_tokens, model");
  }

  @Test
  void aWrongTypeOrRangeNamesTheKeyWhatWasExpectedAndWhatCame() {
    assertThatThrownBy(() -> parse("---\nhistory_window: twenty\n---\n"))
        .hasMessage(
            file() + ": history_window: expected an integer from 0 to 10000, got \"twenty\"");
    assertThatThrownBy(() -> parse("---\nhistory_window: 10001\n---\n"))
        .hasMessage(file() + ": history_window: expected an integer from 0 to 10000, got 10001");
    assertThatThrownBy(() -> parse("---\nhistory_window: 2.5\n---\n"))
        .hasMessage(file() + ": history_window: expected an integer from 0 to 10000, got 2.5");
    assertThatThrownBy(() -> parse("---\nmax_input_tokens: 999\n---\n"))
        .hasMessage(file() + ": max_input_tokens: expected an integer of at least 1000, got 999");
    assertThatThrownBy(() -> parse("---\nmax_input_tokens: 99999999999999999999\n---\n"))
        .hasMessageStartingWith(
            file() + ": max_input_tokens: expected an integer of at least 1000");
    assertThatThrownBy(() -> parse("---\ndescription: [a, b]\n---\n"))
        .hasMessage(
            file()
                + ": description: expected a string (quote it if it looks like a number), got"
                + " [\"a\",\"b\"]");
    assertThatThrownBy(() -> parse("---\nmodel: 4\n---\n"))
        .hasMessage(
            file() + ": model: expected a string (quote it if it looks like a number), got 4");
    assertThatThrownBy(() -> parse("---\nmodel: \"  \"\n---\n"))
        .hasMessage(file() + ": model: expected a non-empty string, got \"  \"");
  }

  @Test
  void unterminatedFrontMatterIsAnError() {
    assertThatThrownBy(() -> parse("---\ndescription: x\n# Vorenus\n"))
        .isInstanceOf(AgentConfigException.class)
        .hasMessage(
            file()
                + ": the front matter opened by '---' on line 1 is never closed: add a '---'"
                + " line after it (a file without front matter must not start with '---')");
    assertThatThrownBy(() -> parse("---")).hasMessageContaining("never closed");
  }

  @Test
  void frontMatterMustBeValidYamlKeysAndValues() {
    assertThatThrownBy(() -> parse("---\ndescription: x\n  bad: [\n---\n"))
        .isInstanceOf(AgentConfigException.class)
        .hasMessageStartingWith(file() + ": the front matter is not valid YAML at line ")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> parse("---\ndescription: a\ndescription: b\n---\n"))
        .hasMessageStartingWith(file() + ": the front matter is not valid YAML at line 3")
        .hasMessageContaining("description");
    assertThatThrownBy(() -> parse("---\n- a list\n---\n"))
        .hasMessage(file() + ": the front matter must be 'key: value' lines, got [\"a list\"]");
  }

  @Test
  void invalidUtf8IsAnError() {
    assertThatThrownBy(
            () ->
                PromptFile.parse(
                    "vorenus", dir.resolve("prompt.md"), new byte[] {'a', (byte) 0xC3}))
        .hasMessage(
            file()
                + ": not valid UTF-8 text: byte 1 (line 1, column 2) is 0xC3, which UTF-8 does not"
                + " allow there; save it as UTF-8");
    // Latin-1 on the second line: the byte, its line and column are named.
    byte[] latin1 = "---\ndescription: caf\u00e9\n---\nBody".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> PromptFile.parse("vorenus", dir.resolve("prompt.md"), latin1))
        .isInstanceOf(AgentConfigException.class)
        .hasMessage(
            file()
                + ": not valid UTF-8 text: byte 20 (line 2, column 17) is 0xE9, which UTF-8 does"
                + " not allow there; save it as UTF-8");
  }
}
