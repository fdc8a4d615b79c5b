package dev.legio.config;

import dev.legio.text.LineAndColumn;
import dev.legio.text.StrictUtf8;
import java.nio.file.Path;

/**
 * The text of a configuration file: it must be UTF-8 text ({@link StrictUtf8}). A byte sequence
 * that is not UTF-8, or a NUL byte (a binary file, or one saved as UTF-16), is refused with the
 * file, the byte's offset, its line and what to do, instead of the decoder's bare "Input length =
 * 1"; whichever comes first is named. A UTF-8 byte order mark at its start (Windows editors write
 * one) is accepted and left out, as a prompt file's is.
 */
final class ConfigFileText {
  private ConfigFileText() {}

  /** Decodes {@code bytes}, the content of {@code file}, or says where and why it is not text. */
  static String decode(Path file, byte[] bytes) {
    StrictUtf8.Result result = StrictUtf8.decode(bytes, StrictUtf8.LeadingBom.SKIP);
    int firstNul = indexOfNul(bytes);
    if (result instanceof StrictUtf8.Malformed m && (firstNul < 0 || m.offset() < firstNul)) {
      throw new ConfigException(
          file
              + " is not UTF-8 text: byte "
              + m.offset()
              + " ("
              + LineAndColumn.of(bytes, m.offset())
              + ") is "
              + m.bytes()
              + ", which UTF-8 does not allow there. Save the file as UTF-8 text.");
    }
    if (firstNul >= 0) {
      throw new ConfigException(
          file
              + " is not UTF-8 text: byte "
              + firstNul
              + " ("
              + LineAndColumn.of(bytes, firstNul)
              + ") is a NUL byte, so this looks like a binary file (or one saved as UTF-16)."
              + " Save the file as UTF-8 text.");
    }
    return ((StrictUtf8.Decoded) result).text();
  }

  private static int indexOfNul(byte[] bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        return i;
      }
    }
    return -1;
  }
}
