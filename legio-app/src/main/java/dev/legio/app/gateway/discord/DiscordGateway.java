package dev.legio.app.gateway.discord;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.gateway.Gateway;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ChannelTurns;
import dev.legio.app.gateway.webhook.ConnectionCheck;
import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.app.gateway.webhook.ReplySplitter;
import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.DiscordSettings;
import dev.legio.delivery.DeliveryLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discord users talking to Legio through the slash command {@code /ask} of a Discord application:
 * Discord posts interactions to {@link #PATH} on Legio's server ({@link DiscordInteractions}); each
 * {@code /ask} is a turn of the channel session {@code discord:CHANNEL_ID}, whose answer replaces
 * the deferred response, the rest in follow-ups when it is longer than {@link #MAX_CHARS}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Starting never fails Legio: without a bot token the gateway is failing and says which
 *       variable to set (interactions are still answered: they need only the public key); an
 *       unreachable Discord leaves it waiting while it checks again ({@code GET /applications/@me})
 *       with a back-off; a refused token, or a token of another application, leaves it failing.
 *   <li>Sending retries as {@link PlatformCalls} says (429 after {@code retry_after}, 5xx with a
 *       bounded back-off); a reply that still cannot be sent is logged and the gateway says why.
 *   <li>No message can mention anyone ({@code allowed_mentions}, see {@link DiscordApi}).
 * </ul>
 */
public final class DiscordGateway implements Gateway {
  private static final Logger log = LoggerFactory.getLogger(DiscordGateway.class);

  public static final String NAME = "discord";
  public static final String PATH = "/gateways/discord/interactions";

  /** The longest message Discord accepts. */
  public static final int MAX_CHARS = 2_000;

  private final DiscordSettings settings;
  private final GatewayStatus status = new GatewayStatus(NAME);
  private final ChannelTurns turns;
  private final PlatformCalls calls;
  private final DiscordApi api;
  private final DiscordInteractions interactions;
  private final ConnectionCheck check;
  private final String keyProblem;

  public DiscordGateway(
      DiscordSettings settings,
      Conversations doors,
      DeliveryLedger deliveries,
      Clock clock,
      RetryPolicy.Sleeper sleeper) {
    this.settings = settings;
    this.turns = new ChannelTurns(doors, "legio-discord-turn-");
    this.calls = PlatformCalls.standard(sleeper);
    this.api = new DiscordApi(settings.apiUrl(), settings.applicationId(), settings.botToken());
    DiscordSignature signature;
    String keyProblem = null;
    try {
      signature = new DiscordSignature(settings.publicKey(), clock);
    } catch (IllegalArgumentException e) {
      signature = null;
      keyProblem = e.getMessage();
    }
    this.keyProblem = keyProblem;
    this.interactions = new DiscordInteractions(signature, deliveries, clock, status, this::onAsk);
    this.check =
        new ConnectionCheck(
            status,
            this::checkApplication,
            f -> describe(f, settings),
            Duration.ofSeconds(2),
            Duration.ofMinutes(2),
            sleeper);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Map<String, Handler> routes() {
    return Map.of(PATH, interactions);
  }

  @Override
  public void start() {
    if (keyProblem != null) {
      status.failing(
          "[gateways.discord] public_key is not the application's Ed25519 public key ("
              + keyProblem
              + "): copy the Public Key from the Developer Portal's General Information page;"
              + " every interaction is refused meanwhile");
      log.warn("gateway discord: {}", status.health().detail());
      return;
    }
    if (settings.botToken() == null) {
      status.failing(
          "set "
              + settings.botTokenEnv()
              + " to the bot token (Developer Portal, Bot) in the environment of legio serve and"
              + " restart it; /ask is answered meanwhile");
      log.warn("gateway discord: {}", status.health().detail());
      return;
    }
    status.waiting("checking the bot token with Discord at " + settings.apiUrl());
    check.start("legio-discord-check");
  }

  private void checkApplication() {
    String id = api.applicationOfToken();
    if (!id.equals(settings.applicationId())) {
      throw new HttpFailure(
          HttpFailure.Kind.REQUEST,
          200,
          null,
          "the token in "
              + settings.botTokenEnv()
              + " belongs to application "
              + id
              + ", not to [gateways.discord] application_id = "
              + settings.applicationId(),
          null);
    }
  }

  private void onAsk(DiscordInteractions.Ask ask) {
    turns.run("discord:" + ask.channelId(), ask.speaker(), ask.text(), answer -> send(ask, answer));
  }

  private void send(DiscordInteractions.Ask ask, String text) {
    List<String> parts = ReplySplitter.split(text.isBlank() ? "(no answer)" : text, MAX_CHARS);
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i);
      boolean first = i == 0;
      try {
        calls.call(
            () -> {
              if (first) {
                api.editOriginal(ask.token(), part);
              } else {
                api.followUp(ask.token(), part);
              }
              return null;
            });
        status.sent();
        if (status.state() != GatewayHealth.State.CONNECTED) {
          status.connected(); // a send works again after one that failed
        }
      } catch (HttpFailure f) {
        // Answers are sent with the interaction's own token, not the bot's: a 401 here means it
        // expired (Discord allows 15 minutes), not that the bot token is wrong.
        String why =
            f.kind() == HttpFailure.Kind.AUTH
                ? "Discord refused the interaction's token ("
                    + f.getMessage()
                    + "): a reply must come within 15 minutes of the /ask; ask again"
                : describe(f, settings);
        log.warn("gateway discord: a reply in {} was not sent: {}", ask.channelId(), why);
        if (f.kind().retryable()) {
          status.waiting("a reply could not be sent: " + why);
        }
        return;
      }
    }
  }

  /** What a user reads for a failed call: what happened and what to do; never a token. */
  static String describe(HttpFailure f, DiscordSettings settings) {
    String where = "Discord at " + settings.apiUrl();
    return switch (f.kind()) {
      case AUTH ->
          where
              + " refuses the bot token in "
              + settings.botTokenEnv()
              + " ("
              + f.getMessage()
              + "): copy it again from the Developer Portal's Bot page (Reset Token)";
      case CONNECT, TIMEOUT -> "cannot reach " + where + " (" + f.getMessage() + ")";
      case RATE_LIMITED, SERVER -> where + " is not answering (" + f.getMessage() + ")";
      case REQUEST, MALFORMED -> where + ": " + f.getMessage();
    };
  }

  @Override
  public GatewayHealth health() {
    return status.health();
  }

  @Override
  public void close() {
    interactions.refuseNewRequests();
    check.close();
    turns.close();
    status.stopped();
  }
}
