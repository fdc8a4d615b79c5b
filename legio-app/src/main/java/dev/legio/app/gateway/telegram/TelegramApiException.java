package dev.legio.app.gateway.telegram;

/**
 * A Bot API call that failed, with what kind of failure it was and a message that never holds the
 * bot token (the token is part of every request's URL, so neither the URL nor an exception that may
 * quote it is ever put in a message: see {@link TelegramApi}).
 */
final class TelegramApiException extends RuntimeException {
  /** Why a call failed; decides whether the gateway is waiting or failing. */
  enum Kind {
    /** Telegram could not be reached, or answered 5xx after the retries: waiting. */
    UNREACHABLE,
    /** The token was refused (401, or 404 for a token of the wrong shape): failing. */
    UNAUTHORIZED,
    /** Still rate limited (429) after the retries: waiting. */
    RATE_LIMITED,
    /** Telegram refused the request itself (400, 403, 409): the caller decides. */
    REFUSED
  }

  private final Kind kind;
  private final int status;

  TelegramApiException(Kind kind, int status, String message) {
    super(message);
    this.kind = kind;
    this.status = status;
  }

  Kind kind() {
    return kind;
  }

  /** The HTTP status, or 0 when there was no answer. */
  int status() {
    return status;
  }
}
