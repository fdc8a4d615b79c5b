package dev.legio.session;

import java.util.List;

/**
 * Told about every turn a session completed (for instance to write it to the session's transcript),
 * after the reply was logged and the session record saved. The engine calls it on a thread of its
 * own, off the turns' path: one call at a time, turns in the order they completed, several turns
 * that completed close together in one {@link #turnsCompleted} call. What it throws is logged and
 * changes nothing about the turns or their replies.
 */
@FunctionalInterface
public interface TurnListener {
  TurnListener NONE = turn -> {};

  void turnCompleted(CompletedTurn turn);

  /** Several turns, in the order they completed; by default each in turn. */
  default void turnsCompleted(List<CompletedTurn> turns) {
    turns.forEach(this::turnCompleted);
  }
}
