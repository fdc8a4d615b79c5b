package dev.legio.app.server;

/** Answers the requests of one route. It may block: each request runs on a virtual thread. */
@FunctionalInterface
interface Endpoint {
  void handle(ApiExchange exchange) throws Exception;
}
