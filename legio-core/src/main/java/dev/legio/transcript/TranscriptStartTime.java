package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * When a transcript started, read from its first part's first lines without loading it: what a
 * listing shows as a session's creation and what {@code GET /api/v1/sessions} pages by.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The start is the top-level {@code timestamp} of the first line that is either an {@code
 *       agent-name} line carrying one (Legio writes the session's creation there, the {@code
 *       createdAt} of its record, so a session's start is the same before its first turn is written
 *       and after: {@link NewEntry.AgentName}) or a conversation line (a type of {@link
 *       TranscriptScanner#MESSAGE_TYPES}: {@code user}, {@code assistant}, {@code summary}, ...),
 *       whether or not a tombstone took that line back later. Other metadata lines, an {@code
 *       agent-name} line without a time (one Legio wrote before it stamped them), lines without a
 *       valid timestamp and malformed lines (a partial line a crash left) are passed over.
 *   <li>Transcripts are only appended to, so once such a line is written the start never changes: a
 *       listing ordered by it stays in the same order while sessions are added.
 *   <li>The part is read {@value #READ_BYTES} bytes at a time and only until the first line that
 *       answers: for a transcript Legio wrote, its first line ({@code agent-name}), within the
 *       first read. Only a transcript with no such line carrying a timestamp is read to the end of
 *       its first part; the answer is then null.
 *   <li>The part is opened as {@link TranscriptFiles} opens parts: a link or a folder is refused
 *       with a {@link TranscriptException} naming it.
 * </ul>
 */
final class TranscriptStartTime {
  private TranscriptStartTime() {}

  /** What is read at a time: a transcript Legio wrote answers within the first read. */
  static final int READ_BYTES = 4096;

  /**
   * The start of the transcript whose first part is {@code firstPart}, or null when no line says.
   *
   * @throws NoSuchFileException when the part is missing
   * @throws IOException when it cannot be read
   * @throws TranscriptException when it is a link or not a regular file
   */
  static Instant of(Path firstPart) throws IOException {
    try (FileChannel channel = TranscriptFiles.openForReading(firstPart)) {
      byte[] bytes = new byte[READ_BYTES];
      int length = 0;
      int lineStart = 0;
      while (true) {
        if (length == bytes.length) {
          if (lineStart > 0) { // keep the line begun, drop the lines read
            System.arraycopy(bytes, lineStart, bytes, 0, length - lineStart);
            length -= lineStart;
            lineStart = 0;
          } else {
            bytes = Arrays.copyOf(bytes, bytes.length * 2);
          }
        }
        int read = channel.read(ByteBuffer.wrap(bytes, length, bytes.length - length));
        if (read < 0) {
          return lineStart < length ? start(bytes, lineStart, length) : null;
        }
        for (int i = length; i < length + read; i++) {
          if (bytes[i] == '\n') {
            Instant start = start(bytes, lineStart, i);
            if (start != null) {
              return start;
            }
            lineStart = i + 1;
          }
        }
        length += read;
      }
    }
  }

  /**
   * The line's timestamp when it is a conversation or {@code agent-name} line carrying a valid one;
   * null otherwise.
   */
  static Instant start(byte[] bytes, int from, int to) {
    String type = null;
    String timestamp = null;
    try (JsonParser p = TranscriptLine.FACTORY.createParser(bytes, from, to - from)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (value == JsonToken.VALUE_STRING && name.equals("type")) {
          type = p.getText();
        } else if (value == JsonToken.VALUE_STRING && name.equals("timestamp")) {
          timestamp = p.getText();
        } else {
          p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        return null; // not one object and nothing after it: malformed, as loading reads it
      }
    } catch (IOException malformed) {
      return null;
    }
    if (type == null
        || timestamp == null
        || !(TranscriptScanner.MESSAGE_TYPES.contains(type) || type.equals("agent-name"))) {
      return null;
    }
    try {
      return Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
