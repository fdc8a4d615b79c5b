package dev.legio.app.server;

/**
 * The event stream of a streamed {@code POST /api/v1/messages}, opened (200, {@code
 * text/event-stream}) only once the request is in the log, or when the first event is sent.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A refusal that comes before the request is logged (an {@code Idempotency-Key} sent again
 *       with another message: 422; a server shutting down: 503) is answered with its status and a
 *       JSON error, as without {@code Accept: text/event-stream}: the client was promised the
 *       status, and nothing was logged. A 200 stream whose only event is an {@code error} would say
 *       the request was taken.
 *   <li>Once the request is logged the stream opens at once, before any turn runs, so a client
 *       waiting for a busy agent has its 200 as before; what fails after that is an {@code error}
 *       event in the stream, as before.
 *   <li>Closing a stream never opened sends nothing: the refusal is the answer.
 * </ul>
 */
final class StreamOpenedOnceLogged {
  private final ApiExchange exchange;
  private SseStream sse;

  StreamOpenedOnceLogged(ApiExchange exchange) {
    this.exchange = exchange;
  }

  /** The stream, opened now if it was not yet. */
  synchronized SseStream open() {
    if (sse == null) {
      sse = exchange.eventStream();
    }
    return sse;
  }

  /** Whether the stream was opened (its 200 sent). */
  synchronized boolean opened() {
    return sse != null;
  }

  /** Ends the stream when it was opened; else nothing (the refusal answers). */
  synchronized void close() {
    if (sse != null) {
      sse.close();
    }
  }
}
