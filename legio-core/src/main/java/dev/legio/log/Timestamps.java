package dev.legio.log;

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

  public static String format(Instant instant) {
    return CANONICAL.format(truncate(instant).atOffset(ZoneOffset.UTC));
  }

  /** Parses an ISO-8601 timestamp; one without an offset is taken as UTC. */
  public static Instant parse(String text) {
    try {
      return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException withOffset) {
      try {
        return LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            .toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException withoutOffset) {
        throw new InvalidMessageException(
            "timestamp '"
                + Names.printable(text)
                + "' is not ISO-8601 (expected e.g. 2026-02-15T12:00:00+00:00)");
      }
    }
  }
}
