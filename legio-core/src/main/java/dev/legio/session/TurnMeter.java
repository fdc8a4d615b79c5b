package dev.legio.session;

/**
 * Told how every turn of the engine ended, as it ends: the seam for counters and timers (the
 * server's {@code GET /metrics}). Plain Java, so the engine knows no metrics library; the
 * application implements it with one. Registered with {@link SessionEngine#setTurnMeter}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every turn the engine runs for a logged request is told exactly once, whatever its ending:
 *       {@link TurnEnding#COMPLETED}, {@link TurnEnding#FAILED}, {@link TurnEnding#BUSY} or {@link
 *       TurnEnding#INTERRUPTED}.
 *   <li>It is told on the turn's own thread, after the reply was logged and before the caller gets
 *       it: a client that has its reply finds the turn counted. It must return at once and never
 *       block.
 *   <li>What it throws is logged and changes nothing about the turn or its reply.
 * </ul>
 */
@FunctionalInterface
public interface TurnMeter {
  TurnMeter NONE = turn -> {};

  void turnEnded(EndedTurn turn);
}
