package dev.legio.text;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The lines of a stream of bytes, each read as UTF-8 exactly ({@link StrictUtf8}): what MCP over
 * stdio reads, one JSON-RPC message a line.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A line ends at {@code \n}; a {@code \r} just before it is not part of the line. The last
 *       line needs no {@code \n}; the end of the stream right after one is no further line.
 *   <li>A line that is not UTF-8 is {@link NotUtf8}, naming its number (from 1) and where in it the
 *       bytes stop being UTF-8: never read as U+FFFD (a tool would store the replacement) or as the
 *       character its bytes imitate. The lines after it are read as any others.
 *   <li>A byte order mark is a character like any other (no stream of messages starts with one).
 * </ul>
 */
public final class Utf8Lines {
  private final InputStream in;
  private final byte[] buffer = new byte[8192];
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private int start;
  private int end;
  private int number;

  public Utf8Lines(InputStream in) {
    this.in = in;
  }

  /** A line read. */
  public sealed interface Line permits Text, NotUtf8 {}

  /** A line in UTF-8: its text, without its end. */
  public record Text(String text) implements Line {}

  /** Line {@code number} (from 1) is not UTF-8 from its byte {@code where.offset()} on. */
  public record NotUtf8(int number, StrictUtf8.Malformed where) implements Line {}

  /** The next line; null at the end of the stream. */
  public Line next() throws IOException {
    line.reset();
    boolean any = false;
    while (true) {
      if (start == end) {
        int read = in.read(buffer);
        if (read < 0) {
          if (!any) {
            return null;
          }
          break;
        }
        start = 0;
        end = read;
      }
      any = true;
      int newline = indexOfNewline();
      if (newline >= 0) {
        line.write(buffer, start, newline - start);
        start = newline + 1;
        break;
      }
      line.write(buffer, start, end - start);
      start = end;
    }
    number++;
    byte[] bytes = line.toByteArray();
    int length =
        bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
    byte[] content = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
    return switch (StrictUtf8.decode(content, StrictUtf8.LeadingBom.KEEP)) {
      case StrictUtf8.Decoded d -> new Text(d.text());
      case StrictUtf8.Malformed m -> new NotUtf8(number, m);
    };
  }

  private int indexOfNewline() {
    for (int i = start; i < end; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
