package dev.legio.session;

import java.time.Duration;
import java.util.Objects;

/**
 * One turn as it ended, for a {@link TurnMeter}.
 *
 * @param owner whose turn it was (an agent or a channel)
 * @param ending how it ended
 * @param duration from the moment its place in the owner's queue came to its end (waiting for a
 *     lease held elsewhere included, waiting behind the owner's earlier turns not), on the
 *     monotonic clock
 * @param completed the turn as the turn listener hears of it (its usage, model, back-end); null
 *     unless {@code ending} is {@link TurnEnding#COMPLETED}
 */
public record EndedTurn(
    Owner owner, TurnEnding ending, Duration duration, CompletedTurn completed) {
  public EndedTurn {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(ending, "ending");
    Objects.requireNonNull(duration, "duration");
    if ((ending == TurnEnding.COMPLETED) != (completed != null)) {
      throw new IllegalArgumentException(
          "a completed turn, and only one, carries its CompletedTurn");
    }
  }
}
