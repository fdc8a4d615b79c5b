package dev.legio.app.server;

/** Who may call a route. A closed set, checked before the route's endpoint runs. */
enum Access {
  /** Anyone, without a token ({@code GET /healthz}). */
  PUBLIC,
  /** An operator token. */
  OPERATOR,
  /**
   * An operator token, or a gateway token whose sources include the route's channel source (the
   * endpoint checks the source: {@link Caller#mayPostTo}).
   */
  CHANNEL,
  /** An operator token or a metrics token ({@code GET /metrics}, for a monitoring scraper). */
  METRICS,
  /**
   * An operator token or a task token: task sessions ({@code /api/v1/tasks}); the endpoint checks a
   * task token's session key prefixes ({@link Caller#reachesTaskKey}).
   */
  TASK
}
