package dev.legio.app.server;

/**
 * {@code GET /readyz}: 200 when this node should get new turns, 503 otherwise, with JSON naming
 * each check ({@link Readiness}); needs no token, and answers while the node drains.
 */
final class ReadyEndpoint implements Endpoint {
  private final Readiness readiness;

  ReadyEndpoint(Readiness readiness) {
    this.readiness = readiness;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    Readiness.Report report = readiness.check();
    exchange.json(report.ready() ? 200 : 503, report.json());
  }
}
