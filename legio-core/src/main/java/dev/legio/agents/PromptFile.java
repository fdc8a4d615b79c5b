package dev.legio.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.legio.text.LineAndColumn;
import dev.legio.text.StrictUtf8;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Reads an agent's {@code prompt.md} (the format is in {@link AgentProfile}).
 *
 * <ul>
 *   <li>The file is UTF-8 ({@link StrictUtf8}; a leading byte order mark is ignored): a file that
 *       is not is refused naming the first byte that is not UTF-8, its line and column. CRLF line
 *       endings work and become LF in the prompt.
 *   <li>Front matter is present when the first line is {@code ---}; it runs to the next {@code ---}
 *       line and is YAML. Its keys: {@code description} (string), {@code model} (non-empty string),
 *       {@code backend} (a back-end kind: this agent's sessions use it instead of {@code [backend]
 *       kind}), {@code history_window} (integer 0 to 10000) and {@code max_input_tokens} (integer
 *       of at least 1000), all optional. A key given as {@code null} (written without a value)
 *       counts as absent. An unknown or repeated key, a wrong type or a value out of range is an
 *       error.
 *   <li>The description is one line: surrounding whitespace is removed and line breaks inside
 *       become spaces. It is empty when not given.
 *   <li>The prompt is the text after the closing {@code ---}, leading blank lines removed; a file
 *       without front matter is all prompt.
 *   <li>The prompt hash is the lowercase hex SHA-256 of the file's bytes, exactly as stored.
 * </ul>
 *
 * Every error is an {@link AgentConfigException} whose message starts with the file's path.
 */
public final class PromptFile {
  public static final String FILE_NAME = "prompt.md";

  /** The front matter keys, sorted. */
  public static final List<String> KEYS =
      List.of("backend", "description", "history_window", "max_input_tokens", "model");

  /** The back-end kinds an agent may name with {@code backend}. */
  public static final List<String> BACKEND_KINDS =
      List.of("offline", "claude-cli", "anthropic", "openai", "ollama");

  private static final String FENCE = "---";
  private static final YAMLMapper YAML =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private PromptFile() {}

  /** Reads and parses {@code file} as the prompt of the agent {@code name}. */
  public static AgentProfile read(String name, Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new AgentConfigException(file + ": cannot read the file: " + e, e);
    }
    return parse(name, file, bytes);
  }

  /** Parses {@code content}, the bytes of {@code file}, as the prompt of the agent {@code name}. */
  public static AgentProfile parse(String name, Path file, byte[] content) {
    String text = decode(file, content).replace("\r\n", "\n");
    String hash = sha256(content);
    List<String> lines = Arrays.asList(text.split("\n", -1));
    if (!lines.get(0).stripTrailing().equals(FENCE)) {
      return new AgentProfile(
          name, "", null, null, OptionalInt.empty(), OptionalLong.empty(), text, hash, file);
    }
    int close = 1;
    while (close < lines.size() && !lines.get(close).stripTrailing().equals(FENCE)) {
      close++;
    }
    if (close == lines.size()) {
      throw new AgentConfigException(
          file
              + ": the front matter opened by '---' on line 1 is never closed: add a '---' line"
              + " after it (a file without front matter must not start with '---')");
    }
    ObjectNode front = frontMatter(file, String.join("\n", lines.subList(1, close)));
    int bodyStart = close + 1;
    while (bodyStart < lines.size() && lines.get(bodyStart).isBlank()) {
      bodyStart++;
    }
    String prompt = String.join("\n", lines.subList(bodyStart, lines.size()));

    checkKeys(file, front);
    String description = string(file, front, "description");
    String model = string(file, front, "model");
    if (model != null && model.isBlank()) {
      throw error(file, "model", "a non-empty string", front.get("model"));
    }
    String backend = string(file, front, "backend");
    if (backend != null && !BACKEND_KINDS.contains(backend)) {
      throw error(
          file,
          "backend",
          "one of " + String.join(", ", BACKEND_KINDS.stream().map(k -> "\"" + k + "\"").toList()),
          front.get("backend"));
    }
    Long historyWindow = integer(file, front, "history_window", 0, 10_000);
    Long maxInputTokens = integer(file, front, "max_input_tokens", 1_000, Long.MAX_VALUE);
    return new AgentProfile(
        name,
        description == null ? "" : description.strip().replaceAll("\\s*\\R\\s*", " "),
        model,
        backend,
        historyWindow == null ? OptionalInt.empty() : OptionalInt.of(historyWindow.intValue()),
        maxInputTokens == null ? OptionalLong.empty() : OptionalLong.of(maxInputTokens),
        prompt,
        hash,
        file);
  }

  /** Lowercase hex SHA-256 of {@code bytes}. */
  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  private static String decode(Path file, byte[] content) {
    return switch (StrictUtf8.decode(content, StrictUtf8.LeadingBom.SKIP)) {
      case StrictUtf8.Decoded d -> d.text();
      case StrictUtf8.Malformed m ->
          throw new AgentConfigException(
              file
                  + ": not valid UTF-8 text: byte "
                  + m.offset()
                  + " ("
                  + LineAndColumn.of(content, m.offset())
                  + ") is "
                  + m.bytes()
                  + ", which UTF-8 does not allow there; save it as UTF-8");
    };
  }

  private static ObjectNode frontMatter(Path file, String yaml) {
    JsonNode node;
    try {
      node = YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " at line " + (e.getLocation().getLineNr() + 1);
      // SnakeYAML's message: unindented sentences, and indented positions and source excerpts.
      String problem =
          e.getOriginalMessage()
              .lines()
              .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
              .collect(Collectors.joining(", "));
      throw new AgentConfigException(
          file + ": the front matter is not valid YAML" + where + ": " + problem, e);
    }
    if (node == null || node.isMissingNode() || node.isNull()) {
      return YAML.createObjectNode();
    }
    if (!node.isObject()) {
      throw new AgentConfigException(
          file + ": the front matter must be 'key: value' lines, got " + describe(node));
    }
    return (ObjectNode) node;
  }

  private static void checkKeys(Path file, ObjectNode front) {
    List<String> unknown = new ArrayList<>();
    for (Iterator<String> names = front.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!KEYS.contains(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new AgentConfigException(
          file
              + ": unknown front matter key '"
              + unknown.get(0)
              + "'; known keys: "
              + String.join(", ", KEYS));
    }
  }

  private static String string(Path file, ObjectNode front, String key) {
    JsonNode node = front.get(key);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      throw error(file, key, "a string (quote it if it looks like a number)", node);
    }
    return node.asText();
  }

  private static Long integer(Path file, ObjectNode front, String key, long min, long max) {
    JsonNode node = front.get(key);
    if (node == null || node.isNull()) {
      return null;
    }
    boolean ok =
        node.isIntegralNumber()
            && node.canConvertToLong()
            && node.asLong() >= min
            && node.asLong() <= max;
    if (!ok) {
      String range =
          max == Long.MAX_VALUE
              ? "an integer of at least " + min
              : "an integer from " + min + " to " + max;
      throw error(file, key, range, node);
    }
    return node.asLong();
  }

  private static AgentConfigException error(Path file, String key, String expected, JsonNode got) {
    return new AgentConfigException(
        file + ": " + key + ": expected " + expected + ", got " + describe(got));
  }

  /** The value as JSON (strings quoted, line breaks escaped), at most 80 characters. */
  private static String describe(JsonNode node) {
    String json = node.toString();
    return json.length() <= 80 ? json : json.substring(0, 79) + "…";
  }
}
