package dev.legio.app.server;

/**
 * Answers the requests of one route, on one of the API's threads: it reads, checks and answers, and
 * hands a call into the engine, or anything else that may wait long, to a virtual thread ({@link
 * ApiExchange#afterEngine}, {@link ApiExchange#onVirtualThread}; the rules are {@link HandOff}'s).
 */
@FunctionalInterface
interface Endpoint {
  void handle(ApiExchange exchange) throws Exception;
}
