package dev.legio.task;

/**
 * The key a caller gives a task session ({@code campaign:7f3c…}).
 *
 * <p>Rules: 1 to 200 characters (code points); every one printable: no control characters (tab,
 * newline, escape...), no unpaired surrogates, no unassigned code points. Anything else (':' '/'
 * spaces, any script) is allowed and kept exactly: the key is only ever compared, never parsed. A
 * prefix of keys (a task token's {@code --keys}) is held to the same rules.
 */
public final class SessionKey {
  public static final int MAX_LENGTH = 200;

  private SessionKey() {}

  /**
   * Returns {@code key} when it is a valid session key.
   *
   * @throws IllegalArgumentException saying what is wrong with it and what a good key looks like
   */
  public static String require(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException(
          "session_key is missing: give 1-200 printable characters, e.g. \"campaign:7f3c\"");
    }
    requireShape(key, "session_key", "campaign:7f3c");
    return key;
  }

  /**
   * Returns {@code prefix} when it can begin session keys (a task token's {@code --keys}): held to
   * a key's rules, 1 to 200 printable characters, so that a prefix no key can start with is refused
   * when it is given rather than never matching.
   *
   * @throws IllegalArgumentException saying what is wrong with it and what a good prefix looks like
   */
  public static String requirePrefix(String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      throw new IllegalArgumentException(
          "a key prefix is empty: give 1-200 printable characters, e.g. \"campaign:\"");
    }
    requireShape(prefix, "a key prefix", "campaign:");
    return prefix;
  }

  private static void requireShape(String text, String what, String example) {
    int length = text.codePointCount(0, text.length());
    if (length > MAX_LENGTH) {
      throw new IllegalArgumentException(
          what + " is " + length + " characters long; at most " + MAX_LENGTH + " are allowed");
    }
    int[] points = text.codePoints().toArray();
    for (int i = 0; i < points.length; i++) {
      if (!printable(points[i])) {
        throw new IllegalArgumentException(
            String.format(
                "%s holds a character that is not printable (U+%04X at position %d);"
                    + " use printable characters only, e.g. \"%s\"",
                what, points[i], i + 1, example));
      }
    }
  }

  /** Whether {@code cp} is printable by the rules above. */
  static boolean printable(int cp) {
    int type = Character.getType(cp);
    return type != Character.CONTROL
        && type != Character.SURROGATE
        && type != Character.UNASSIGNED
        && type != Character.FORMAT
        && type != Character.LINE_SEPARATOR
        && type != Character.PARAGRAPH_SEPARATOR;
  }
}
