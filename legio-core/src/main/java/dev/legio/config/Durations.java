package dev.legio.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Ages as people type them: {@code 30d}, {@code 12h}, {@code 45m}, {@code 10s}, or ISO-8601. */
public final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})([dhms])");

  private Durations() {}

  public static Duration parse(String text) {
    Matcher m = SHORT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "d" -> Duration.ofDays(n);
        case "h" -> Duration.ofHours(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofSeconds(n);
      };
    }
    try {
      Duration d = Duration.parse(text.trim().toUpperCase(Locale.ROOT));
      if (!d.isNegative()) {
        return d;
      }
    } catch (DateTimeParseException ignored) {
      // reported below
    }
    throw new IllegalArgumentException(
        "'"
            + text
            + "' is not an age: use a number and d, h, m or s (90d, 12h) or ISO-8601 (P90D)");
  }
}
