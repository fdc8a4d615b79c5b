package dev.legio.store.gateway;

import dev.legio.log.jdbc.SharedWriter;

/**
 * The order in which a gateway's owed replies come out of {@code gateway_outbox} ({@link
 * GatewayStateStore#pending}, by id), which is the order a sender posts them in.
 *
 * <p>Rule: <b>the replies kept in one transaction come out together, in the order given, after
 * every reply of the gateway kept before</b>, whatever threads, processes or nodes keep replies at
 * the same time: the parts of one answer are never posted between the parts of another. Every
 * transaction that keeps replies for a gateway first locks the gateway's row of {@code
 * gateway_state} ({@link #lock}, {@link #lockForMessage}), until it commits. On PostgreSQL ids come
 * from a sequence, which hands them out in call order: without the lock two transactions inserting
 * at once would draw them interleaved, and the one that commits later might hold the lower ids, so
 * that a sender reading in between would post the later answer first. SQLite runs one write
 * transaction at a time, so there the lock changes nothing.
 */
final class OutboxOrder {
  /** Creates the gateway's row, or locks it: a no-op update, so that it works on both databases. */
  private static final String LOCK =
      " ON CONFLICT (gateway) DO UPDATE SET next_offset = gateway_state.next_offset";

  private OutboxOrder() {}

  /** The statement that locks {@code gateway}'s order until the transaction commits. */
  static SharedWriter.Update lock(String gateway) {
    return new SharedWriter.Update(
        "INSERT INTO gateway_state (gateway) VALUES (?)" + LOCK, s -> s.setString(1, gateway));
  }

  /**
   * The statement that locks the order of the gateway of message {@code id} of {@code
   * gateway_inbox} while {@code claimant} claims it (nothing when it does not).
   */
  static SharedWriter.Update lockForMessage(long id, String claimant) {
    return new SharedWriter.Update(
        "INSERT INTO gateway_state (gateway) SELECT gateway FROM gateway_inbox WHERE id = ? AND"
            + " claimed_by = ?"
            + LOCK,
        s -> {
          s.setLong(1, id);
          s.setString(2, claimant);
        });
  }
}
