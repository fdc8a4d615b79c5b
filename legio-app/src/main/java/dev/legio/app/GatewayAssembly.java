package dev.legio.app;

import dev.legio.app.gateway.Gateway;
import dev.legio.app.gateway.discord.DiscordGateway;
import dev.legio.app.gateway.slack.SlackGateway;
import dev.legio.app.gateway.telegram.OperatorCommands;
import dev.legio.app.gateway.telegram.TelegramGateway;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.app.gateway.webhook.SharedOwedReplies;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.LegioConfig;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the chat gateways {@code [gateways.*]} in legio.toml enables, in this order: telegram,
 * slack, discord. Each gets the doors every front end shares ({@link LegioApp#doors()}) and its
 * state in the store; none is started here.
 */
final class GatewayAssembly {
  private GatewayAssembly() {}

  static List<Gateway> enabled(LegioApp app, Clock clock) {
    LegioConfig config = app.config();
    List<Gateway> enabled = new ArrayList<>();
    if (config.telegram().enabled()) {
      enabled.add(
          TelegramGateway.create(
              config.telegram(),
              app.doors(),
              OperatorCommands.of(app.messageLog(), app.engine(), app.agents(), app.usage()),
              app.store().gatewayState(),
              app.store().jobLeases(),
              config.sessions().leaseDuration(),
              clock));
    }
    if (config.slack().enabled()) {
      enabled.add(
          new SlackGateway(
              config.slack(),
              app.doors(),
              app.store().gatewayInbox(),
              config.sessions().leaseDuration(),
              new SharedOwedReplies(
                  app.store().gatewayState(),
                  app.store().jobLeases(),
                  SlackGateway.NAME,
                  config.sessions().leaseDuration(),
                  clock),
              ReplyOutbox.Backoff.STANDARD,
              clock,
              RetryPolicy.Sleeper.REAL));
    }
    if (config.discord().enabled()) {
      enabled.add(
          new DiscordGateway(
              config.discord(),
              app.doors(),
              app.store().gatewayInbox(),
              config.sessions().leaseDuration(),
              new SharedOwedReplies(
                  app.store().gatewayState(),
                  app.store().jobLeases(),
                  DiscordGateway.NAME,
                  config.sessions().leaseDuration(),
                  clock),
              ReplyOutbox.Backoff.STANDARD,
              clock,
              RetryPolicy.Sleeper.REAL));
    }
    return enabled;
  }
}
