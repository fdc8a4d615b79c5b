package dev.legio.session;

import dev.legio.log.StorableText;
import java.nio.charset.StandardCharsets;

/**
 * A model's answer as the message log can keep it, so that an answer the model gave is never lost
 * for its form: the log refuses text over {@code [praetorium] max_message_bytes}, a NUL and an
 * unpaired surrogate, and a turn whose reply the log refused would be lost while the model's own
 * conversation kept it (its request then looked unanswered, and was sent again).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An answer the log can keep is kept exactly.
 *   <li>A NUL (U+0000) and an unpaired surrogate become U+FFFD, the replacement character.
 *   <li>An answer longer than the maximum is cut at a character boundary so that, with a last line
 *       saying it was cut, how long it was and which key sets the maximum, it is exactly within it.
 * </ul>
 */
final class StorableReply {
  private StorableReply() {}

  /** {@code answer} as the log can keep it, at most {@code maxBytes} bytes of UTF-8. */
  static String of(String answer, long maxBytes) {
    String text = clean(answer);
    long bytes = StorableText.utf8Length(text);
    if (bytes <= maxBytes) {
      return text;
    }
    String note =
        "\n\n[… the answer was cut here: it was "
            + bytes
            + " bytes, more than [praetorium] max_message_bytes ("
            + maxBytes
            + ")]";
    if (note.getBytes(StandardCharsets.UTF_8).length > maxBytes / 2) {
      note = ""; // a maximum too small to say so in: only cut
    }
    long room = maxBytes - note.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder kept = new StringBuilder();
    long used = 0;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      int size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (used + size > room) {
        break;
      }
      kept.appendCodePoint(c);
      used += size;
      i += Character.charCount(c);
    }
    return kept.append(note).toString();
  }

  private static String clean(String text) {
    int bad = StorableText.firstUnstorable(text);
    if (bad < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length()).append(text, 0, bad);
    for (int i = bad; i < text.length(); i++) {
      char c = text.charAt(i);
      if (StorableText.unstorableAt(text, i)) {
        out.append('\uFFFD');
      } else if (Character.isHighSurrogate(c)) {
        out.append(c).append(text.charAt(++i));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
