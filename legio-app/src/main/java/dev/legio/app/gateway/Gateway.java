package dev.legio.app.gateway;

import java.util.Map;
import org.eclipse.jetty.server.Handler;

/**
 * A chat platform's door into Legio (Telegram, Slack, Discord): it turns the platform's messages
 * into turns through {@link dev.legio.app.conversation.Conversations} (caesar's path for the
 * operator, a channel's path for everyone else) and sends the replies back.
 *
 * <p>Rules every gateway keeps:
 *
 * <ul>
 *   <li>{@link #start()} never fails Legio: a platform that is down or refuses the credentials
 *       leaves the gateway {@link GatewayHealth.State#WAITING} or {@link
 *       GatewayHealth.State#FAILING} (saying why in {@link #health()}) while Legio serves
 *       everything else, and the gateway keeps trying on its own.
 *   <li>Secrets come from environment variables named in its config section, never from files, and
 *       never appear in its health, logs or errors.
 *   <li>A gateway that receives HTTP (a webhook) names its handlers in {@link #routes()}; the
 *       server mounts them under {@code /gateways/NAME/}, outside the API's bearer-token check:
 *       each such handler checks the platform's own signature itself.
 * </ul>
 */
public interface Gateway extends AutoCloseable {

  /**
   * The platform's name as in config and status: {@code telegram}, {@code slack}, {@code discord}.
   */
  String name();

  /** Starts polling or accepting; returns at once. */
  void start();

  /** Where the gateway stands now. */
  GatewayHealth health();

  /**
   * The HTTP handlers this gateway receives requests on, by path (each starting with {@code
   * /gateways/NAME/}); empty (the default) for a gateway that only polls.
   */
  default Map<String, Handler> routes() {
    return Map.of();
  }

  /**
   * Takes no new message from now on (a webhook answers 503, so that the platform sends it again
   * later or elsewhere; a poller stops after the update in hand), while turns in flight go on: the
   * first step of a drain, whose turns the server then waits for. Returns at once. Never throws.
   */
  default void stopTaking() {}

  /** Stops polling and sending; waits briefly for a turn in flight. Never throws. */
  @Override
  void close();
}
