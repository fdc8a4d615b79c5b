package dev.legio.session;

/**
 * Told about every turn a session completed (for instance to write it to the session's transcript).
 * Called on the turn's own thread, after the reply was logged and the session record saved, one
 * turn of an owner at a time and in order. What it throws is logged and changes nothing about the
 * turn or its reply.
 */
@FunctionalInterface
public interface TurnListener {
  TurnListener NONE = turn -> {};

  void turnCompleted(CompletedTurn turn);
}
