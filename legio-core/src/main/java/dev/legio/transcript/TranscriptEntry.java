package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A message or summary of a loaded transcript. Its type and ids were read when loading; the rest of
 * the line is kept as bytes and parsed on first use ({@link #json()}), so loading a large
 * transcript costs little more than its size in memory.
 */
public final class TranscriptEntry {
  private static final ObjectMapper JSON = new ObjectMapper(TranscriptLine.FACTORY);

  private final String type;
  private final String uuid;
  private final String parentUuid;
  private final byte[] buffer;
  private final int offset;
  private final int length;
  private final String source;
  private volatile JsonNode json;

  TranscriptEntry(
      String type,
      String uuid,
      String parentUuid,
      byte[] buffer,
      int offset,
      int length,
      String source) {
    this.type = type;
    this.uuid = uuid;
    this.parentUuid = parentUuid;
    this.buffer = buffer;
    this.offset = offset;
    this.length = length;
    this.source = source;
  }

  /** {@code user}, {@code assistant}, {@code system}, {@code attachment} or {@code summary}. */
  public String type() {
    return type;
  }

  /** The entry's id, or null (Claude Code's own summaries have none). */
  public String uuid() {
    return uuid;
  }

  /** The entry before it in the conversation, or null. */
  public String parentUuid() {
    return parentUuid;
  }

  public boolean isSummary() {
    return type.equals("summary");
  }

  /** The size of its line in bytes, without the newline. */
  public int byteSize() {
    return length;
  }

  /** Its line as written. */
  public String rawLine() {
    return new String(buffer, offset, length, StandardCharsets.UTF_8);
  }

  /**
   * The whole line, parsed (once, on first call).
   *
   * @throws TranscriptException when the line's body is not valid JSON, which loading has already
   *     checked: never for a line the loader returned
   */
  public JsonNode json() {
    JsonNode parsed = json;
    if (parsed == null) {
      try {
        parsed = JSON.readTree(buffer, offset, length);
      } catch (IOException e) {
        throw new TranscriptException(notJson(e), e);
      }
      json = parsed;
    }
    return parsed;
  }

  /**
   * One line for people: the line of the file (counted in the part, not Jackson's line 1 of the
   * slice it was given), what is wrong in Jackson's own words without its source excerpt, and what
   * to do.
   */
  private String notJson(IOException e) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (buffer[i] == '\n') {
        line++;
      }
    }
    String what =
        e instanceof JsonProcessingException j && j.getOriginalMessage() != null
            ? dev.legio.errors.JsonSyntax.what(j)
            : String.valueOf(e.getMessage());
    int cut = what.indexOf('\n');
    if (cut >= 0) {
      what = what.substring(0, cut);
    }
    String column =
        e instanceof JsonProcessingException j && j.getLocation() != null
            ? ", column " + j.getLocation().getColumnNr()
            : "";
    return "line "
        + line
        + column
        + " of "
        + source
        + " is not valid JSON ("
        + what
        + "): fix or delete that line";
  }

  /** The Messages API message ({@code role}, {@code content}), or a missing node. */
  public JsonNode message() {
    return json().path("message");
  }

  /** Its role: the message's {@code role}, or {@code summary}. */
  public String role() {
    return isSummary() ? "summary" : message().path("role").asText(type);
  }

  /**
   * Its text: a summary's text, or the message's content when it is a string, else its text blocks
   * joined by newlines (other blocks, such as tool calls, are left out).
   */
  public String text() {
    if (isSummary()) {
      return json().path("summary").asText("");
    }
    JsonNode content = message().path("content");
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder out = new StringBuilder();
    for (JsonNode block : content) {
      if (block.path("type").asText().equals("text")) {
        if (!out.isEmpty()) {
          out.append('\n');
        }
        out.append(block.path("text").asText());
      }
    }
    return out.toString();
  }

  /** For a Legio summary, how many messages it replaces; 0 otherwise. */
  public int messagesCompacted() {
    return isSummary() ? json().path("messagesCompacted").asInt(0) : 0;
  }

  /** When it was written, or null when the line has no valid timestamp. */
  public Instant timestamp() {
    String text = json().path("timestamp").asText(null);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return type + " " + uuid;
  }
}
