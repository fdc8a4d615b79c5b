package dev.legio.app.cli;

/** What a test terminal showed, made safe to print in a failure message. */
final class Screens {
  private Screens() {}

  /**
   * {@code shown} with every control character other than newline written as {@code \\uXXXX}: the
   * terminal's escape sequences and carriage returns stay visible in a failure message instead of
   * cutting it short or overwriting it.
   */
  static String visible(String shown) {
    StringBuilder out = new StringBuilder(shown.length());
    shown
        .codePoints()
        .forEach(
            c -> {
              if (c != '\n' && (Character.isISOControl(c) || c == 0x2028 || c == 0x2029)) {
                out.append(String.format("\\u%04X", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }
}
