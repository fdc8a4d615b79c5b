package dev.legio.config;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The text of a configuration file: it must be UTF-8 text. A byte sequence that is not UTF-8, or a
 * NUL byte (a binary file, or one saved as UTF-16), is refused with the file, the byte's offset,
 * its line and what to do, instead of the decoder's bare "Input length = 1". A UTF-8 byte order
 * mark at its start (Windows editors write one) is accepted and left out, as a prompt file's is.
 */
final class ConfigFileText {
  private ConfigFileText() {}

  /** Decodes {@code bytes}, the content of {@code file}, or says where and why it is not text. */
  static String decode(Path file, byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    int firstNul = indexOfNul(bytes);
    if (result.isError() && (firstNul < 0 || in.position() < firstNul)) {
      int offset = in.position();
      throw new ConfigException(
          file
              + " is not UTF-8 text: byte "
              + offset
              + " ("
              + where(bytes, offset)
              + ") is "
              + hex(bytes[offset])
              + ", which UTF-8 does not allow there. Save the file as UTF-8 text.");
    }
    if (firstNul >= 0) {
      throw new ConfigException(
          file
              + " is not UTF-8 text: byte "
              + firstNul
              + " ("
              + where(bytes, firstNul)
              + ") is a NUL byte, so this looks like a binary file (or one saved as UTF-16)."
              + " Save the file as UTF-8 text.");
    }
    decoder.flush(out);
    String text = out.flip().toString();
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  private static int indexOfNul(byte[] bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  /** "line L, column C" of the byte at {@code offset}, both from 1, columns counted in bytes. */
  private static String where(byte[] bytes, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return "line " + line + ", column " + (offset - lineStart + 1);
  }

  private static String hex(byte b) {
    return String.format(Locale.ROOT, "0x%02X", b & 0xFF);
  }
}
