package dev.legio.backend.http;

import java.time.Duration;

/**
 * Why one request to a model's HTTP API failed, as a {@link ChatClient} reports it. The session
 * decides from {@link #kind()} whether to try again; the message never holds a secret.
 */
public final class HttpFailure extends RuntimeException {

  /** What went wrong. */
  public enum Kind {
    /** The server could not be reached (connection refused, unknown host). */
    CONNECT(true, "the server could not be reached"),
    /** The server took longer than the time-out. */
    TIMEOUT(true, "the request timed out"),
    /** HTTP 429. */
    RATE_LIMITED(true, "rate limited"),
    /** HTTP 5xx (and Anthropic's 529 "overloaded"). */
    SERVER(true, "server error"),
    /** HTTP 401 or 403. */
    AUTH(false, "the API key was refused"),
    /** Any other 4xx: the request was wrong (unknown model, too long, ...). */
    REQUEST(false, "the request was refused"),
    /** The answer could not be read: not the protocol, or it broke off. */
    MALFORMED(false, "the answer could not be read");

    private final boolean retryable;
    private final String description;

    Kind(boolean retryable, String description) {
      this.retryable = retryable;
      this.description = description;
    }

    public boolean retryable() {
      return retryable;
    }

    public String description() {
      return description;
    }
  }

  private final Kind kind;
  private final int status;
  private final Duration retryAfter;

  /**
   * @param status the HTTP status, or 0 when there was no response
   * @param retryAfter how long the server asked to wait ({@code retry-after}), or null
   * @param message what happened, with the server's own message where it sent one
   */
  public HttpFailure(Kind kind, int status, Duration retryAfter, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }

  public static HttpFailure of(Kind kind, String message) {
    return new HttpFailure(kind, 0, null, message, null);
  }

  /** The failure an HTTP status stands for. */
  public static Kind kindOf(int status) {
    if (status == 429) {
      return Kind.RATE_LIMITED;
    }
    if (status == 401 || status == 403) {
      return Kind.AUTH;
    }
    if (status >= 500) {
      return Kind.SERVER;
    }
    return Kind.REQUEST;
  }

  /**
   * Reads a {@code retry-after} header: seconds (possibly fractional), or null when absent or not a
   * number (an HTTP date is rare from these APIs and is treated as absent).
   */
  public static Duration parseRetryAfter(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    try {
      double seconds = Double.parseDouble(header.strip());
      return seconds < 0 ? null : Duration.ofMillis((long) Math.ceil(seconds * 1000));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * An answer that is not the API's own (a proxy's page, a wrong base URL): nothing was refused,
   * the way there failed, so it is {@link Kind#SERVER} and retried, never a refusal that drops what
   * is owed.
   *
   * @param what the call, e.g. {@code chat.postMessage}
   * @param api the API and how its answers look, e.g. {@code Slack's Web API does (JSON with "ok")}
   * @param urlSetting the setting that points at the API, e.g. {@code [gateways.slack] api_url}
   */
  public static HttpFailure notTheApi(
      String what, int status, Duration retryAfter, String api, String urlSetting) {
    return new HttpFailure(
        Kind.SERVER,
        status,
        retryAfter,
        what
            + " answered HTTP "
            + status
            + ", but not as "
            + api
            + ": check "
            + urlSetting
            + ", and any proxy on the way",
        null);
  }

  /**
   * The failure an I/O problem stands for, found in {@code problem} or its causes: a refused or
   * unresolvable connection is {@link Kind#CONNECT}, a time-out {@link Kind#TIMEOUT}, any other I/O
   * error before an answer {@link Kind#CONNECT} too (a dropped connection is worth a retry), and
   * anything that is not I/O {@link Kind#MALFORMED}.
   */
  public static HttpFailure fromProblem(Throwable problem) {
    for (Throwable t = problem; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException
          || t instanceof java.net.UnknownHostException
          || t instanceof java.net.NoRouteToHostException) {
        return new HttpFailure(Kind.CONNECT, 0, null, describe(t), problem);
      }
      if (t instanceof java.net.SocketTimeoutException
          || t instanceof java.net.http.HttpTimeoutException
          || (t instanceof java.io.InterruptedIOException
              && String.valueOf(t.getMessage()).contains("timeout"))) {
        return new HttpFailure(Kind.TIMEOUT, 0, null, describe(t), problem);
      }
    }
    for (Throwable t = problem; t != null; t = t.getCause()) {
      if (t instanceof java.io.IOException) {
        return new HttpFailure(Kind.CONNECT, 0, null, describe(t), problem);
      }
    }
    return new HttpFailure(Kind.MALFORMED, 0, null, describe(problem), problem);
  }

  /** What happened, in words rather than the exception's class name. */
  private static String describe(Throwable t) {
    String what =
        switch (t) {
          case java.net.ConnectException c -> "connection refused";
          case java.net.UnknownHostException u -> "unknown host";
          case java.net.NoRouteToHostException n -> "no route to host";
          case java.net.SocketTimeoutException s -> "timed out";
          case java.net.http.HttpTimeoutException h -> "timed out";
          case java.io.InterruptedIOException i -> "timed out";
          case java.io.EOFException e -> "the connection closed early";
          case java.io.IOException i -> "input/output error";
          default -> "unexpected answer";
        };
    String message = t.getMessage();
    return message == null || message.isBlank() ? what : what + " (" + message + ")";
  }

  /**
   * What the user reads when this failure ends a request for good: the back-end and where it was
   * sent, what happened (the HTTP status, how many attempts were made, the server's own message and
   * how long it asked to wait) and what to do next. A failure after the answer had begun to stream
   * is reported as the answer breaking off: it cannot be retried or kept. The message is not yet
   * redacted.
   *
   * @param retries how many retries were made before giving up (0: the first attempt failed)
   * @param streamed whether part of the answer had been streamed
   */
  public String describe(String displayName, String baseUrl, int retries, boolean streamed) {
    StringBuilder m = new StringBuilder(displayName).append(" at ").append(baseUrl);
    Kind shown = kind;
    if (streamed && kind.retryable()) {
      // Whatever broke the stream, the answer is incomplete: it cannot be retried or kept.
      m.append(": the answer broke off while it was streaming");
      shown = Kind.MALFORMED;
    } else {
      m.append(": ").append(kind.description());
    }
    if (status > 0) {
      m.append(" (HTTP ").append(status).append(')');
    }
    if (retries > 0) {
      m.append(" after ").append(retries + 1).append(" attempts");
    }
    m.append(": ").append(getMessage());
    if (retryAfter != null && kind.retryable()) {
      m.append(" (the server asked to wait ").append(retryAfter.toSeconds()).append(" s)");
    }
    return m.append(hint(shown)).toString();
  }

  /** The advice after a broken answer to a turn's request. */
  private static final String TURN_ADVICE = ". The turn was not stored; send the message again.";

  /**
   * {@code described} ({@link #describe}'s words) without the advice meant for a turn's request,
   * for a request that was no turn (a compaction's summary).
   */
  public static String withoutTurnAdvice(String described) {
    return described == null ? null : described.replace(TURN_ADVICE, ".");
  }

  /** What to do next after a failure of {@code kind}, naming the keys to check. */
  private static String hint(Kind kind) {
    return switch (kind) {
      case CONNECT -> ". Is the server running? Check [backend] base_url in legio.toml.";
      case TIMEOUT ->
          ". Raise [backend] request_timeout_seconds (or connect_timeout_seconds) if the model"
              + " needs longer.";
      case AUTH -> ". Check the API key in the environment variable [backend] api_key_env names.";
      case RATE_LIMITED, SERVER -> ". Try again later.";
      case REQUEST -> ". Check [backend] model and the agent's front matter.";
      case MALFORMED -> TURN_ADVICE;
    };
  }

  public Kind kind() {
    return kind;
  }

  public int status() {
    return status;
  }

  public Duration retryAfter() {
    return retryAfter;
  }
}
