package dev.legio.app.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The requests routed whose bodies are still on their way, which a graceful stop does not wait for.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A request whose body has not arrived whole when it is routed ({@link ArrivedBody}) is
 *       awaited until its endpoint has read that body, or failed to: until then it has dispatched
 *       nothing (an endpoint reads its whole body before it logs or runs anything).
 *   <li>When the server starts to drain, every request still awaited is ended at once: 503 "Legio
 *       is shutting down", {@code Connection: close}, the rest of its body never read. It no longer
 *       counts as in flight, so the drain does not wait for a client that promised a body and
 *       stopped sending it (until the idle time-out, 30 s, where a stop takes a few seconds), and
 *       nothing of it is logged.
 *   <li>A request whose body arrived before the drain began goes on as any request in flight: the
 *       drain waits for its answer (its turn may finish within the grace).
 *   <li>Which comes first, the body or the drain, is decided once per request: a request is never
 *       both ended and answered.
 * </ul>
 */
final class AwaitedBodies {
  /** Where an exchange's body is, as far as the drain is concerned. */
  enum Wait {
    /** Arrived whole when the request was routed, or since: the request goes on. */
    ARRIVED,
    /** Still on its way: the drain may end the request. */
    AWAITED,
    /** The drain ended the request while its body was on its way; it has been answered. */
    ENDED
  }

  private final Set<ApiExchange> awaited = ConcurrentHashMap.newKeySet();

  /**
   * {@code exchange}'s body is still on its way: the drain may end it until it {@link #arrived}.
   */
  void add(ApiExchange exchange) {
    exchange.bodyWait().set(Wait.AWAITED);
    awaited.add(exchange);
  }

  /**
   * Called when {@code exchange}'s body has been read or its read failed, and before it dispatches
   * or answers anything: true when the request goes on, false when the drain ended it first
   * (answered already: the caller stops, silently).
   */
  boolean arrived(ApiExchange exchange) {
    AtomicReference<Wait> wait = exchange.bodyWait();
    boolean goesOn = wait.compareAndSet(Wait.AWAITED, Wait.ARRIVED) || wait.get() == Wait.ARRIVED;
    awaited.remove(exchange);
    return goesOn;
  }

  /** Ends every request still awaited: {@code end} answers each, once. */
  void endAll(Consumer<ApiExchange> end) {
    for (ApiExchange exchange : awaited) {
      awaited.remove(exchange);
      if (exchange.bodyWait().compareAndSet(Wait.AWAITED, Wait.ENDED)) {
        end.accept(exchange);
      }
    }
  }

  /** True when the drain ended {@code exchange} while its body was on its way. */
  static boolean ended(ApiExchange exchange) {
    return exchange.bodyWait().get() == Wait.ENDED;
  }

  /**
   * Thrown to stop an endpoint whose request the drain ended while it waited for the body: the
   * request was answered (503) and nothing more is said or logged.
   */
  static final class Ended extends RuntimeException {
    Ended() {
      super("ended by the drain while its body was on its way", null, false, false);
    }
  }
}
