package dev.legio.app.gateway.discord;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.gateway.Gateway;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ChannelTurns;
import dev.legio.app.gateway.webhook.ConnectionCheck;
import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.OwedReplies;
import dev.legio.app.gateway.webhook.OwedReply;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.app.gateway.webhook.RefusalLog;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.DiscordSettings;
import dev.legio.delivery.DeliveryLedger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;
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
 *   <li>A reply is kept before it is sent ({@link ReplyOutbox}): a Discord that is down for a while
 *       delays it and does not lose it, until the interaction's token expires ({@link
 *       #INTERACTION_LIFETIME}). Each send retries as {@link PlatformCalls} says (429 after {@code
 *       retry_after}, 5xx with a bounded back-off), then the outbox tries again later. The replies
 *       owed stay in memory ({@link OwedReplies#inMemory()}): they carry the interaction's token, a
 *       credential, which Legio never writes to disk; a restart loses them, and says how many.
 *   <li>No message can mention anyone ({@code allowed_mentions}, see {@link DiscordApi}).
 * </ul>
 */
public final class DiscordGateway implements Gateway {
  private static final Logger log = LoggerFactory.getLogger(DiscordGateway.class);

  public static final String NAME = "discord";
  public static final String PATH = "/gateways/discord/interactions";

  /** The longest message Discord accepts. */
  public static final int MAX_CHARS = 2_000;

  /** How long Discord takes responses with an interaction's token. */
  public static final Duration INTERACTION_LIFETIME = Duration.ofMinutes(15);

  private final DiscordSettings settings;
  private final GatewayStatus status = new GatewayStatus(NAME);
  private final ChannelTurns turns;
  private final PlatformCalls calls;
  private final DiscordApi api;
  private final DiscordInteractions interactions;
  private final ConnectionCheck check;
  private final ReplyOutbox outbox;
  private final java.util.concurrent.atomic.AtomicBoolean closing =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final Clock clock;
  private final String keyProblem;

  /**
   * @param backoff how long the outbox waits between rounds while Discord cannot take a reply
   */
  public DiscordGateway(
      DiscordSettings settings,
      Conversations doors,
      DeliveryLedger deliveries,
      ReplyOutbox.Backoff backoff,
      Clock clock,
      RetryPolicy.Sleeper sleeper) {
    this.settings = settings;
    this.clock = clock;
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
    RefusalLog refusals =
        new RefusalLog(
            NAME,
            "If these are Discord's own requests, check that [gateways.discord] public_key is the"
                + " application's Public Key (General Information) and that this machine's clock is"
                + " right.",
            clock);
    this.interactions =
        new DiscordInteractions(signature, deliveries, refusals, clock, status, this::onAsk);
    this.check =
        new ConnectionCheck(
            status,
            this::checkApplication,
            f -> describe(f, settings),
            Duration.ofSeconds(2),
            Duration.ofMinutes(2),
            sleeper);
    this.outbox =
        new ReplyOutbox(NAME, OwedReplies.inMemory(), new Sending(), status, backoff, clock);
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
    outbox.start(); // /ask is answered with the interaction's token, bot token or not
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
    Instant deadline = clock.instant().plus(INTERACTION_LIFETIME);
    turns.run(
        "discord:" + ask.channelId(),
        ask.speaker(),
        ask.text(),
        answer -> send(ask, deadline, answer));
  }

  private void send(DiscordInteractions.Ask ask, Instant deadline, String text) {
    outbox.owe(
        OwedReply.answer(
            ask.channelId(), ask.token(), text, MAX_CHARS, UnaryOperator.identity(), deadline));
  }

  /**
   * One reply to Discord with the interaction's token: the first part replaces the deferred
   * response, the others are follow-ups.
   */
  private final class Sending implements ReplyOutbox.Platform {
    @Override
    public void send(OwedReply reply) {
      calls.call(
          () -> {
            if (reply.part() == 0) {
              api.editOriginal(reply.thread(), reply.text());
            } else {
              api.followUp(reply.thread(), reply.text());
            }
            return null;
          });
    }

    /** Kept: Discord unreachable or slow. A refused token means the interaction expired. */
    @Override
    public boolean keep(HttpFailure failure) {
      return failure.kind().retryable();
    }

    @Override
    public String describe(HttpFailure failure) {
      // Answers are sent with the interaction's own token, not the bot's: a 401 here means it
      // expired (Discord allows 15 minutes), not that the bot token is wrong.
      return failure.kind() == HttpFailure.Kind.AUTH
          ? "Discord refused the interaction's token ("
              + failure.getMessage()
              + "): a reply must come within 15 minutes of the /ask; ask again"
          : DiscordGateway.describe(failure, settings);
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
  public void stopTaking() {
    interactions.refuseNewRequests();
  }

  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      return; // closed once (serve's drain and its shutdown both close the gateways)
    }
    stopTaking();
    check.close();
    turns.close();
    outbox.close();
    int lost = outbox.owedCount();
    if (lost > 0) {
      log.warn(
          "gateway discord: {} reply message(s) were not sent before Legio stopped; Discord's"
              + " users see no answer to those /ask commands and can ask again",
          lost);
    }
    status.stopped();
  }
}
