package dev.legio.app.server;

import java.util.OptionalLong;

/**
 * A whole number as a client writes one in a query parameter or a header: ASCII digits 0–9, with a
 * minus sign in front for a negative one, and nothing else. {@link Long#parseLong} alone would also
 * take a plus sign and the digits of other scripts ({@code ５}, {@code ١٠٠}), which no client means
 * as a number.
 */
final class WholeNumber {
  private WholeNumber() {}

  /** The number {@code text} writes, or empty when it is not one or is beyond a {@code long}. */
  static OptionalLong parse(String text) {
    if (text == null) {
      return OptionalLong.empty();
    }
    int start = text.startsWith("-") ? 1 : 0;
    if (text.length() == start) {
      return OptionalLong.empty();
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return OptionalLong.empty();
      }
    }
    try {
      return OptionalLong.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
