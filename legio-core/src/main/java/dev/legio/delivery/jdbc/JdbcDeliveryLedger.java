package dev.legio.delivery.jdbc;

import dev.legio.delivery.DeliveryLedger;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The {@link DeliveryLedger} on Legio's SQL database (SQLite or PostgreSQL), in the table {@code
 * gateway_deliveries}: one upsert that inserts a new id, or takes over an expired record, and
 * touches nothing when the record still lives; its update count says which. Writes run on the
 * message log's writer, one at a time, so two deliveries of one id cannot both count as first.
 */
public final class JdbcDeliveryLedger implements DeliveryLedger {
  private static final String TAKE =
      "INSERT INTO gateway_deliveries (source, event_id, seen_at, expires_at) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT (source, event_id) DO UPDATE SET seen_at = excluded.seen_at,"
          + " expires_at = excluded.expires_at"
          + " WHERE gateway_deliveries.expires_at <= excluded.seen_at";
  private static final String DELETE_EXPIRED =
      "DELETE FROM gateway_deliveries WHERE expires_at <= ?";

  private final SqlValues values;
  private final SharedWriter writer;

  /**
   * @param values how the database stores timestamps
   * @param writer where writes run (the message log's writer)
   */
  public JdbcDeliveryLedger(SqlValues values, SharedWriter writer) {
    this.values = Objects.requireNonNull(values, "values");
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  @Override
  public boolean firstDelivery(String source, String eventId, Instant now, Duration keep) {
    return writer.executeUpdates(List.of(take(values, source, eventId, now, keep)))[0] > 0;
  }

  /**
   * The statement {@link #firstDelivery} runs, for a store that records a delivery in a transaction
   * of its own (the gateways' inbox): its update count is 1 for the first delivery.
   */
  public static SharedWriter.Update take(
      SqlValues values, String source, String eventId, Instant now, Duration keep) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(eventId, "eventId");
    Instant seen = Timestamps.truncate(now);
    Instant expires = Timestamps.truncate(now.plus(keep));
    return new SharedWriter.Update(
        TAKE,
        s -> {
          s.setString(1, source);
          s.setString(2, eventId);
          values.bindTimestamp(s, 3, seen);
          values.bindTimestamp(s, 4, expires);
        });
  }

  /**
   * An SQL condition, true when one of {@code ids} event ids of a source has a live record; its
   * parameters are the source, the time, then the ids.
   */
  public static String liveRecordOf(int ids) {
    return "EXISTS (SELECT 1 FROM gateway_deliveries WHERE source = ? AND expires_at > ? AND"
        + " event_id IN ("
        + String.join(", ", java.util.Collections.nCopies(ids, "?"))
        + "))";
  }

  @Override
  public int deleteExpired(Instant now) {
    return writer.executeUpdate(
        DELETE_EXPIRED, s -> values.bindTimestamp(s, 1, Timestamps.truncate(now)));
  }
}
