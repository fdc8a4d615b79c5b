package dev.legio.log;

import dev.legio.errors.Quoted;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Message timestamps as text: UTC, ISO-8601 with an explicit offset and microseconds, e.g. {@code
 * 2026-02-15T12:00:00.000000+00:00}. The fixed width makes text order equal time order, which the
 * SQLite store relies on; Legio's own {@code isoformat()} timestamps (no fraction, or any fraction)
 * are read too.
 */
public final class Timestamps {
  private static final DateTimeFormatter CANONICAL =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx");

  private Timestamps() {}

  /** The instant truncated to what the log stores (microseconds). */
  public static Instant truncate(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * The fast path for what the log writes ({@code 2026-02-15T12:00:00.123456+00:00}, read for every
   * message of every query): plain digit arithmetic, no formatter. Returns null for any other
   * shape, which the general parser then handles.
   */
  private static Instant parseCanonical(String t) {
    if (t.length() != 32
        || t.charAt(4) != '-'
        || t.charAt(7) != '-'
        || t.charAt(10) != 'T'
        || t.charAt(13) != ':'
        || t.charAt(16) != ':'
        || t.charAt(19) != '.'
        || !t.endsWith("+00:00")) {
      return null;
    }
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    int second = digits(t, 17, 2);
    int micros = digits(t, 20, 6);
    if ((year | month | day | hour | minute | second | micros) < 0
        || month < 1
        || month > 12
        || day < 1
        || day > 28 && day > java.time.YearMonth.of(year, month).lengthOfMonth()
        || hour > 23
        || minute > 59
        || second > 59) {
      return null;
    }
    long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(
        epochDay * 86_400 + hour * 3600L + minute * 60L + second, micros * 1000L);
  }

  /** The decimal number in {@code t[from, from+count)}, or -1 if it is not all digits. */
  private static int digits(String t, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  public static String format(Instant instant) {
    return CANONICAL.format(truncate(instant).atOffset(ZoneOffset.UTC));
  }

  /** Parses an ISO-8601 timestamp; one without an offset is taken as UTC. */
  public static Instant parse(String text) {
    Instant canonical = parseCanonical(text);
    if (canonical != null) {
      return canonical;
    }
    try {
      return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException withOffset) {
      try {
        return LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            .toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException withoutOffset) {
        throw new InvalidMessageException(
            "timestamp '"
                + Quoted.of(text)
                + "' is not ISO-8601 (expected e.g. 2026-02-15T12:00:00+00:00)");
      }
    }
  }
}
