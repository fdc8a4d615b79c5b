package dev.legio.log;

/**
 * Text Legio's stores can keep: the message log, a task's stored conversation, the usage ledger.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A NUL (U+0000) and an unpaired surrogate cannot be kept: PostgreSQL refuses the one in
 *       text, and neither is Unicode a reader can decode the same way. Everything else (any script,
 *       tabs, newlines, markup) is kept exactly.
 *   <li>Where one is, is said in UTF-16 code units, as a JSON string's and Java's indexes are.
 *   <li>A text's size is its length in UTF-8 (a surrogate pair 4 bytes), as the stores hold it.
 * </ul>
 */
public final class StorableText {
  private StorableText() {}

  /** The index of the first character of {@code text} no store can keep, or -1 when none. */
  public static int firstUnstorable(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (unstorableAt(text, i)) {
        return i;
      }
      if (Character.isHighSurrogate(text.charAt(i))) {
        i++; // the pair's low half
      }
    }
    return -1;
  }

  /**
   * Whether the character at {@code i} cannot be kept: a NUL, or a surrogate that is not half of a
   * pair (for a high surrogate followed by its low half, false; call it on the high half only).
   */
  public static boolean unstorableAt(String text, int i) {
    char c = text.charAt(i);
    if (c == 0) {
      return true;
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    }
    return Character.isLowSurrogate(c);
  }

  /**
   * What and where the character at {@code i} is, for an error: "a NUL character (U+0000) at index
   * 3", "an unpaired surrogate (U+D800) at index 7".
   */
  public static String describe(String text, int i) {
    char c = text.charAt(i);
    return (c == 0
            ? "a NUL character (U+0000)"
            : String.format("an unpaired surrogate (U+%04X)", (int) c))
        + " at index "
        + i;
  }

  /** The size of {@code text} in UTF-8. */
  public static long utf8Length(String text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      }
    }
    return bytes;
  }
}
