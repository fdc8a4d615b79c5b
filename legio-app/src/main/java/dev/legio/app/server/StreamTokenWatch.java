package dev.legio.app.server;

/**
 * The token of a stream that outlives the request which opened it ({@code GET /api/v1/events}),
 * checked again while the stream runs: a revoked token stops reading.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A token revoked (or replaced by a token made later under its name) while its stream is open
 *       ends the stream: the stream sends no event after it learns of it, but a last {@code
 *       revoked} event, and closes. Revoking a leaked token so cuts off what it is reading, not
 *       only its next request.
 *   <li>The token file is looked at again at most once every {@link #EVERY_NANOS} per stream (a
 *       stat of the file, read again only when it changed), before an event is sent and at each
 *       keep-alive: events logged more than that after the revocation never reach the stream.
 *   <li>A token file that cannot be read says nothing about the token: the stream goes on (every
 *       new request gets 503 meanwhile, {@link ApiTokens}).
 *   <li>Only such a stream is watched. Any other request, a streamed {@code POST /api/v1/messages}
 *       included, is authorised once, when it arrives, and answered to its end: its stream carries
 *       the replies to its own message and ends with its turn, and the same replies come in the
 *       JSON answer, which is not looked at again either. Cutting it would undo nothing (the turn
 *       runs on, its replies are logged) and keep from the holder only what the JSON answer gives
 *       anyway, while {@code /events} carries everything logged, for as long as it stays open.
 * </ul>
 */
final class StreamTokenWatch {
  /** How often, at most, the token is looked at again. */
  static final long EVERY_NANOS = 1_000_000_000L;

  private final ApiTokens tokens;
  private final Caller caller;
  private long checkedAt;
  private boolean revoked;

  StreamTokenWatch(ApiTokens tokens, Caller caller) {
    this.tokens = tokens;
    this.caller = caller;
    this.checkedAt = System.nanoTime();
  }

  /** Whether the stream's token has been revoked, as last looked at (at most a second ago). */
  boolean revoked() {
    if (revoked || tokens == null || caller == null) {
      return revoked;
    }
    long now = System.nanoTime();
    if (now - checkedAt >= EVERY_NANOS) {
      checkedAt = now;
      revoked = !tokens.stillHolds(caller);
    }
    return revoked;
  }

  /** The error of the last event of a stream whose token was revoked. */
  String error() {
    return "the token '"
        + caller.token()
        + "' of this stream was revoked or replaced; connect again with a current token"
        + " (`legio token list` shows them; `legio token create NAME --role operator` makes one)";
  }
}
