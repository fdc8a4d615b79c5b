package dev.legio.app.server;

import dev.legio.app.http.HeaderText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code GET /api/v1/events}: server-sent events of everything that happens (see {@link EventHub}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The first event is {@code ready} with the feed's position. With {@code Last-Event-ID: SEQ}
 *       (or {@code ?after=SEQ}) every message above SEQ is sent first, read from the log, then the
 *       live stream: none missed, none twice. A SEQ above the newest message (the client knew a log
 *       since restored or replaced) counts as the newest: the stream goes on live from there.
 *   <li>Sent both, {@code Last-Event-ID} wins over {@code ?after=}: a browser's {@code EventSource}
 *       reconnects to the URL it first opened, {@code ?after=} and all, with the id of the last
 *       event it received, which is the newer. {@code ?after=} is still checked (a whole number,
 *       given once): a URL that is wrong is refused whatever the header says.
 *   <li>{@code Last-Event-ID} sent twice is 400 naming it, as a query parameter given twice is.
 *   <li>A {@code message} event's id is its sequence; other events have none.
 *   <li>The answer is {@code text/event-stream} only: an {@code Accept} that does not take it
 *       ({@code application/json}, {@code text/event-stream;q=0}) is 406 ({@link
 *       AcceptNegotiation}); no {@code Accept}, or {@code *}{@code /*}, streams.
 *   <li>A client whose buffer fills gets a final {@code too_slow} event and is disconnected; at
 *       shutdown every client gets {@code shutdown}; a client whose token is revoked gets {@code
 *       revoked} ({@link StreamTokenWatch}). Idle streams get a comment every 15 s.
 * </ul>
 */
final class EventsEndpoint implements Endpoint {
  static final long KEEP_ALIVE_MILLIS = 15_000;

  @Override
  public boolean streams() {
    return true;
  }

  private final ServerParts parts;
  private final EventHub hub;

  EventsEndpoint(ServerParts parts, EventHub hub) {
    this.parts = parts;
    this.hub = hub;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    exchange.answerType(ApiExchange.EVENT_STREAM); // 406 for an Accept that does not take it
    long after = resumeAfter(exchange);
    // A stream lasts as long as its client: it holds a virtual thread, not one of the API's.
    exchange.onVirtualThread(() -> stream(exchange, after));
  }

  private void stream(ApiExchange exchange, long after) throws Exception {
    EventSubscription subscription = hub.subscribe();
    SseStream sse = exchange.eventStream();
    // A sequence above the newest (a client of a log since restored or replaced) counts as the
    // newest, so that what is logged from now on still reaches it.
    long[] lastSent = {
      after > subscription.replayUpTo() ? Math.min(after, parts.messageLog().lastSequence()) : after
    };
    try {
      sse.send(ServerEvent.of("ready", Map.of("sequence", subscription.replayUpTo())));
      if (after >= 0 && after < subscription.replayUpTo()) {
        try {
          LogPages.forEach(
              parts.messageLog(),
              after,
              subscription.replayUpTo(),
              m -> {
                try {
                  sse.send(
                      ServerEvent.of("message", Long.toString(m.sequence()), Views.message(m)));
                  lastSent[0] = m.sequence();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
      StreamTokenWatch token = exchange.tokenWatch();
      while (true) {
        ServerEvent event = subscription.next(KEEP_ALIVE_MILLIS);
        if (token.revoked()) {
          sse.send(ServerEvent.of("revoked", Map.of("error", token.error())));
          break;
        }
        if (event == null) {
          EventSubscription.End end = subscription.ended();
          if (end != null) {
            sse.send(ServerEvent.of(end.event, Map.of("error", end.text)));
            break;
          }
          sse.keepAlive();
          continue;
        }
        if (event.isMessage()) {
          if (event.sequence() <= lastSent[0]) {
            continue;
          }
          lastSent[0] = event.sequence();
        }
        sse.send(event);
      }
      sse.close();
    } catch (IOException e) {
      sse.abort(e);
    } finally {
      hub.unsubscribe(subscription);
    }
  }

  /** The sequence to resume after: {@code Last-Event-ID}, else {@code ?after=}, else -1 (live). */
  private static long resumeAfter(ApiExchange exchange) {
    long after = exchange.queryLong("after", -1, 0, Long.MAX_VALUE);
    int sent = exchange.headerCount("Last-Event-ID");
    if (sent > 1) {
      // As a query parameter given twice (QueryParameters): which one is meant is not clear.
      throw ApiException.badRequest(
          "header 'Last-Event-ID' is given "
              + sent
              + " times; send it once (the sequence of the last event received)");
    }
    String header = exchange.header("Last-Event-ID");
    if (header != null && !header.isBlank()) {
      OptionalLong value = WholeNumber.parse(header.strip());
      if (value.isPresent() && value.getAsLong() >= 0) {
        return value.getAsLong();
      }
      throw ApiException.badRequest(
          "Last-Event-ID must be a message sequence (a whole number), got '"
              + HeaderText.quoted(header)
              + "'");
    }
    return after;
  }
}
