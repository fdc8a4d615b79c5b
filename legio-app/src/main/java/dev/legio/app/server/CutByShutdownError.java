package dev.legio.app.server;

import dev.legio.session.RequestKey;

/**
 * The error of a request whose turns Legio's shutdown cut (answered 503): the shutdown's note is no
 * answer, so the caller is told to send the message again once Legio is back.
 *
 * <p>Rule: with an {@code Idempotency-Key}, sending it again under the same key keeps it one
 * request (logged once, its turns run again); without one, the error says the resend is logged
 * again and to give each message a key.
 */
final class CutByShutdownError {
  private CutByShutdownError() {}

  /** The error for a request that {@code notAnswered} (agents or a channel) did not answer. */
  static String of(String notAnswered, RequestKey key) {
    return "Legio shut down before "
        + notAnswered
        + " answered; send the message again when Legio is back, "
        + (key != null
            ? "with the same Idempotency-Key so that it stays one request"
            : "knowing that it was logged and is logged again (it came without an"
                + " Idempotency-Key: give each message one so that sending it again keeps it one"
                + " request)");
  }
}
