package dev.legio.app.gateway;

/**
 * Where a gateway stands, as {@code legio status} and {@code GET /api/v1/status} show it.
 *
 * @param name the platform ({@code telegram})
 * @param state connected, waiting for the platform, failing, or disabled
 * @param detail why, in words a user can act on (never a secret); empty when connected
 * @param messagesIn platform messages taken in since start
 * @param messagesOut messages sent to the platform since start
 */
public record GatewayHealth(
    String name, State state, String detail, long messagesIn, long messagesOut) {

  /** A gateway's state. */
  public enum State {
    /** Talking to the platform. */
    CONNECTED,
    /** Not talking to the platform yet (it is down, or not reached yet); retrying. */
    WAITING,
    /** The platform refuses us (credentials, configuration); retrying, but a user should look. */
    FAILING,
    /** Stopped. */
    STOPPED
  }

  public GatewayHealth {
    detail = detail == null ? "" : detail;
  }

  /** The state in lower case, as shown: {@code connected}, {@code waiting}, ... */
  public String stateName() {
    return state.name().toLowerCase(java.util.Locale.ROOT);
  }
}
