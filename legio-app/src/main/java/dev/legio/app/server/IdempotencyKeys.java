package dev.legio.app.server;

import dev.legio.app.http.HeaderText;
import dev.legio.session.RequestKey;

/**
 * The {@code Idempotency-Key} header of {@code POST /api/v1/messages} and {@code POST
 * /api/v1/channels/{channel}/messages}: a client that sends a request again with the same key
 * (after a time-out, or a node that stopped) gets the first request's answers, and no agent runs a
 * second turn for it (the engine's {@link RequestKey} rules).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The key is optional; 1-{@value RequestKey#MAX_LENGTH} printable ASCII characters without
 *       spaces, bare or as a quoted string ({@code "8e03978e-…"}, the form of the IETF draft {@code
 *       draft-ietf-httpapi-idempotency-key-header}); anything else is 400, as is the header sent
 *       more than once. The 400 quotes the key as the client wrote it ({@link HeaderText}).
 *   <li>Keys belong to the token that sends them: another token's same key is another request, and
 *       so is a key of a token revoked and made again under the same name.
 *   <li>A key sent again with another text, or to other agents, is 422, and nothing is logged.
 * </ul>
 */
final class IdempotencyKeys {
  static final String HEADER = "Idempotency-Key";

  private IdempotencyKeys() {}

  /** The request key of {@code exchange}; null when it sends none. */
  static RequestKey of(ApiExchange exchange) {
    String value = exchange.header(HEADER);
    if (value == null) {
      return null;
    }
    if (exchange.headerCount(HEADER) > 1) {
      throw ApiException.badRequest(
          "header "
              + HEADER
              + " is sent more than once: send one key per request (which one was meant cannot"
              + " be told)");
    }
    String key = value.strip();
    if (key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"")) {
      key = key.substring(1, key.length() - 1);
    }
    try {
      return new RequestKey("token:" + exchange.caller().tokenId(), key);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "header "
              + HEADER
              + " '"
              + HeaderText.quoted(value)
              + "' is not a key: send 1-"
              + RequestKey.MAX_LENGTH
              + " printable ASCII characters without spaces, such as a new UUID per message");
    }
  }
}
