package dev.legio.app.server;

import dev.legio.app.metrics.LegioMetrics;

/**
 * {@code GET /metrics}: this process's metrics in Prometheus's text exposition format ({@link
 * LegioMetrics} lists them). Needs an operator token or a {@code metrics} token (a scraper's, which
 * may read nothing else); a server started without metrics answers 404.
 */
final class MetricsEndpoint implements Endpoint {
  private final LegioMetrics metrics;

  /**
   * @param metrics what to serve; null: this server serves none
   */
  MetricsEndpoint(LegioMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    if (metrics == null) {
      throw ApiException.notFound(
          "this server was started without metrics (legio serve serves them at GET /metrics)");
    }
    exchange.text(200, LegioMetrics.CONTENT_TYPE, metrics.scrape());
  }
}
