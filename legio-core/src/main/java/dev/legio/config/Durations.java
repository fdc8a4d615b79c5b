package dev.legio.config;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ages as people type them: {@code 30d}, {@code 12h}, {@code 45m}, {@code 10s}, or ISO-8601.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The short form is digits and one of {@code d}, {@code h}, {@code m}, {@code s}; the
 *       ISO-8601 form is any duration {@link Duration#parse} reads that is not negative. Spaces
 *       around either are ignored; nothing else is (a NUL or a control character makes it no age).
 *   <li>An age is at most {@link #MAX} (999 999 999 days, the longest the short form can say),
 *       whichever form says it; a longer one is refused, saying the range.
 *   <li>Counted back from now ({@link #before}), an age stops at {@link #EARLIEST} (1970): Legio
 *       holds nothing older, and the databases cannot hold a time millions of years back. So {@code
 *       999999999d} means "everything" to {@code legio usage --since}, {@code GET
 *       /api/v1/usage?since=}, and "nothing" to the prunes' {@code --older-than}.
 * </ul>
 */
public final class Durations {
  /** The longest age. */
  public static final Duration MAX = Duration.ofDays(999_999_999);

  /** The earliest time an age counted back from now reaches. */
  public static final Instant EARLIEST = Instant.EPOCH;

  private static final Pattern SHORT = Pattern.compile("(\\d+)([dhms])");

  private Durations() {}

  /**
   * The age {@code text} says.
   *
   * @throws IllegalArgumentException when it is not an age or is longer than {@link #MAX}, saying
   *     what to type
   */
  public static Duration parse(String text) {
    String typed = text.strip();
    Matcher m = SHORT.matcher(typed.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      java.math.BigInteger n = new java.math.BigInteger(m.group(1));
      long unit =
          switch (m.group(2)) {
            case "d" -> 86_400;
            case "h" -> 3_600;
            case "m" -> 60;
            default -> 1;
          };
      java.math.BigInteger seconds = n.multiply(java.math.BigInteger.valueOf(unit));
      if (seconds.compareTo(java.math.BigInteger.valueOf(MAX.toSeconds())) > 0) {
        throw tooLong(text);
      }
      return Duration.ofSeconds(seconds.longValueExact());
    }
    try {
      Duration d = Duration.parse(typed.toUpperCase(Locale.ROOT));
      if (d.compareTo(MAX) > 0) {
        throw tooLong(text);
      }
      if (!d.isNegative()) {
        return d;
      }
    } catch (DateTimeParseException e) {
      if (e.getCause() instanceof ArithmeticException) {
        throw tooLong(text); // more seconds than a Duration holds
      }
      // otherwise not an age: reported below
    }
    throw new IllegalArgumentException(
        "'"
            + dev.legio.errors.Quoted.of(text)
            + "' is not an age: use a number and d, h, m or s (90d, 12h) or ISO-8601 (P90D)");
  }

  /** {@code age} before {@code now}, but not before {@link #EARLIEST}. */
  public static Instant before(Instant now, Duration age) {
    return age.compareTo(Duration.between(EARLIEST, now)) >= 0 ? EARLIEST : now.minus(age);
  }

  private static IllegalArgumentException tooLong(String text) {
    return new IllegalArgumentException(
        "'"
            + dev.legio.errors.Quoted.of(text)
            + "' is too long an age: at most 999999999 days (999999999d or P999999999D)");
  }
}
