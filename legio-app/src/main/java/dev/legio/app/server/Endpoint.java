package dev.legio.app.server;

/**
 * Answers the requests of one route, on one of the API's threads: it reads, checks and answers, and
 * hands a call into the engine, or anything else that may wait long, to a virtual thread ({@link
 * ApiExchange#afterEngine}, {@link ApiExchange#onVirtualThread}; the rules are {@link HandOff}'s).
 */
@FunctionalInterface
interface Endpoint {
  void handle(ApiExchange exchange) throws Exception;

  /**
   * True for an endpoint whose answer is a stream that stays open ({@code GET /events}); a {@code
   * HEAD} of it is refused, since its headers alone would hold a stream without a body.
   */
  default boolean streams() {
    return false;
  }
}
