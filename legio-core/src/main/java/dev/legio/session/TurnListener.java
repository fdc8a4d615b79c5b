package dev.legio.session;

import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Told about every turn a session completed (for instance to write it to the session's transcript).
 * Called on the engine's listener thread ({@link TurnListenerQueue}), after the reply was logged
 * and the session record saved, one call at a time and in the order the turns ended. What it throws
 * is logged and changes nothing about the turn or its reply.
 */
@FunctionalInterface
public interface TurnListener {
  TurnListener NONE = turn -> {};

  void turnCompleted(CompletedTurn turn);

  /**
   * Told about turns that completed one after another, in order, in one call: the turns that
   * completed while the listener was busy with earlier ones. A listener that writes them together
   * (one transaction, one file write per session) keeps up with more turns per second than its
   * writes per second. By default, one {@link #turnCompleted} each; one that throws is logged and
   * the next is still told.
   */
  default void turnsCompleted(List<CompletedTurn> turns) {
    for (CompletedTurn turn : turns) {
      try {
        turnCompleted(turn);
      } catch (RuntimeException e) {
        LoggerFactory.getLogger(TurnListener.class)
            .warn("{}: the turn listener failed (the turn itself succeeded)", turn.owner(), e);
      }
    }
  }

  /**
   * Told about a turn that reached its back-end and failed (an error, a time-out, a lost lease), on
   * the same thread and in the same order as completed turns. Does nothing unless overridden.
   */
  default void turnFailed(FailedTurn turn) {}

  /**
   * A listener that tells {@code listeners} in order; one that throws is logged and the next is
   * still told.
   */
  static TurnListener inOrder(TurnListener... listeners) {
    List<TurnListener> all = List.of(listeners);
    return new TurnListener() {
      @Override
      public void turnCompleted(CompletedTurn turn) {
        for (TurnListener listener : all) {
          try {
            listener.turnCompleted(turn);
          } catch (RuntimeException e) {
            LoggerFactory.getLogger(TurnListener.class)
                .warn(
                    "{}: a turn listener failed ({}); the next is still told",
                    turn.owner(),
                    e.getMessage(),
                    e);
          }
        }
      }

      @Override
      public void turnsCompleted(List<CompletedTurn> turns) {
        for (TurnListener listener : all) {
          try {
            listener.turnsCompleted(turns);
          } catch (RuntimeException e) {
            LoggerFactory.getLogger(TurnListener.class)
                .warn(
                    "{} turns: a turn listener failed ({}); the next is still told",
                    turns.size(),
                    e.getMessage(),
                    e);
          }
        }
      }

      @Override
      public void turnFailed(FailedTurn turn) {
        for (TurnListener listener : all) {
          try {
            listener.turnFailed(turn);
          } catch (RuntimeException e) {
            LoggerFactory.getLogger(TurnListener.class)
                .warn(
                    "{}: a turn listener failed ({}); the next is still told",
                    turn.owner(),
                    e.getMessage(),
                    e);
          }
        }
      }
    };
  }
}
