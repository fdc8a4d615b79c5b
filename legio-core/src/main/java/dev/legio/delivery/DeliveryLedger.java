package dev.legio.delivery;

import java.time.Duration;
import java.time.Instant;

/**
 * The platform events a chat gateway has taken in, by the platform's own event id, so that a
 * delivery the platform sends again (Slack's retries, a replayed Discord interaction) runs no
 * second turn.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #firstDelivery} is true for exactly one caller per {@code (source, eventId)} while
 *       its record lives, across threads, processes and nodes sharing the database.
 *   <li>A record lives for the {@code keep} given when it was taken; once expired the id counts as
 *       new again, and {@link #deleteExpired} removes it.
 *   <li>The record is written before the turn runs: a turn that fails after it is not run again on
 *       the platform's retry (at most once, never twice).
 * </ul>
 */
public interface DeliveryLedger {

  /**
   * Records {@code eventId} of {@code source} ({@code slack}, {@code discord}) as seen at {@code
   * now} for {@code keep}; true when it was not seen before (or its record had expired).
   */
  boolean firstDelivery(String source, String eventId, Instant now, Duration keep);

  /** Deletes the records expired at {@code now}; returns how many. */
  int deleteExpired(Instant now);
}
