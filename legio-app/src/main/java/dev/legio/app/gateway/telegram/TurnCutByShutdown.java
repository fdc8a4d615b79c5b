package dev.legio.app.gateway.telegram;

/**
 * Legio's shutdown cut the turn of a Telegram message: what the session logged is the shutdown's
 * note ({@link dev.legio.session.InterruptionNote}), not an answer.
 *
 * <p>Rule: such a message is not answered and its update is not confirmed; it is left to the next
 * process (the poller's next {@code getUpdates} from the stored offset; a webhook's delivery gets
 * 503, which Telegram sends again), which logs the request once more under its request key, not
 * twice, and answers it once. Its user never reads the note, which names the internal channel key
 * and answers nothing.
 */
final class TurnCutByShutdown extends RuntimeException {
  TurnCutByShutdown(String channel) {
    super(
        "Legio's shutdown cut the turn of " + channel + "; the next process answers it",
        null,
        false,
        false);
  }
}
