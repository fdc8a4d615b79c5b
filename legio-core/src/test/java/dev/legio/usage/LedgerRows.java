package dev.legio.usage;

import dev.legio.pricing.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** Ledger rows for the usage writer's tests: one turn that went well, told apart by its owner. */
final class LedgerRows {
  /** When every row's turn ended. */
  static final Instant AT = Instant.parse("2026-11-28T10:00:00Z");

  private LedgerRows() {}

  /** A row of {@code owner}'s turn at {@link #AT}, of a session of its own. */
  static LedgerEntry row(String owner) {
    return new LedgerEntry(
        AT,
        UUID.randomUUID(),
        owner,
        null,
        "offline",
        null,
        new Tokens(10, 5, 0, 0),
        TurnCost.choose("offline", null, null),
        Duration.ofMillis(5),
        TurnOutcome.OK);
  }
}
