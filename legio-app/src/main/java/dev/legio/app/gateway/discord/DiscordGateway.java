package dev.legio.app.gateway.discord;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.gateway.Gateway;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ChannelTurns;
import dev.legio.app.gateway.webhook.ConnectionCheck;
import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.InboxTurns;
import dev.legio.app.gateway.webhook.OwedReplies;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.app.gateway.webhook.RefusalLog;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.DiscordSettings;
import dev.legio.errors.FailureText;
import dev.legio.store.gateway.GatewayInbox;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discord users talking to Legio through the slash command {@code /ask} of a Discord application:
 * Discord posts interactions to {@link #PATH} on Legio's server ({@link DiscordInteractions}); each
 * {@code /ask} is a turn of the channel session {@code discord:CHANNEL_ID}, whose answer replaces
 * the deferred response, the rest in follow-ups when it is longer than {@link #MAX_CHARS} ({@link
 * InteractionAnswers}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Starting never fails Legio: without a bot token the gateway is failing and says which
 *       variable to set (interactions are still answered: they need only the public key); an
 *       unreachable Discord leaves it waiting while it checks again ({@code GET /applications/@me})
 *       with a back-off; a refused token, or a token of another application, leaves it failing.
 *   <li>An {@code /ask} is kept in Legio's database before Discord hears it arrived, and forgotten
 *       once its answer is sent ({@link InboxTurns}): a process killed or drained during its turn
 *       leaves it to the next process (on this host at once, on another node once its claim ran
 *       out). That process has no interaction token (a credential, which Legio never writes to
 *       disk), so it posts the answer in the channel as the bot, after a line naming the asker
 *       ({@link ChannelAnswer}); so does this process when the token runs out ({@link
 *       #INTERACTION_LIFETIME}) before Discord took the answer. Without a bot token no such answer
 *       can be posted, so no other process's {@code /ask} is taken over; one older than {@link
 *       #STALE_AFTER} is dropped with a warning, not answered.
 *   <li>A reply is kept before it is sent ({@link ReplyOutbox}): a Discord that is down for a while
 *       delays it and does not lose it. Each send retries as {@link PlatformCalls} says (429 after
 *       {@code retry_after}, 5xx with a bounded back-off), then the outbox tries again later.
 *       Replies with the token are kept in memory (the {@code /ask} stays in the inbox until they
 *       are sent), the ones posted in the channel in the database ({@code gateway_outbox}).
 *   <li>When the database cannot keep an {@code /ask} (Discord never delivers an interaction
 *       again), its turn still runs, unkept.
 *   <li>No text a model wrote can ping anyone ({@code allowed_mentions}, see {@link
 *       AllowedMentions}): the one message that pings is the line Legio writes before an answer
 *       posted in the channel, and it pings the asker alone ({@link ChannelAnswer}).
 * </ul>
 */
public final class DiscordGateway implements Gateway {
  private static final Logger log = LoggerFactory.getLogger(DiscordGateway.class);

  public static final String NAME = "discord";
  public static final String PATH = "/gateways/discord/interactions";

  /** The longest message Discord accepts. */
  public static final int MAX_CHARS = 2_000;

  /**
   * How old an {@code /ask} whose process stopped may be and still be answered in its channel; an
   * older one (Legio was down, or without a bot token, for longer) is dropped with a warning.
   */
  public static final Duration STALE_AFTER = Duration.ofDays(1);

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
  private final InteractionAnswers answers;
  private final InboxTurns inbox;
  private final java.util.concurrent.atomic.AtomicBoolean closing =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final String keyProblem;

  /**
   * @param inbox where the {@code /ask}s taken in are kept until they are answered
   * @param claim how long an {@code /ask}'s claim by this process lasts unless renewed ({@code
   *     [sessions] lease_ttl_seconds})
   * @param owed where the answers posted in channels are kept until Discord takes them
   * @param backoff how long the outboxes wait between rounds while Discord cannot take a reply
   */
  public DiscordGateway(
      DiscordSettings settings,
      Conversations doors,
      GatewayInbox inbox,
      Duration claim,
      OwedReplies owed,
      ReplyOutbox.Backoff backoff,
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
    RefusalLog refusals =
        new RefusalLog(
            NAME,
            "If these are Discord's own requests, check that [gateways.discord] public_key is the"
                + " application's Public Key (General Information) and that this machine's clock is"
                + " right.",
            clock);
    this.interactions = new DiscordInteractions(signature, refusals, status, this::takeIn);
    this.check =
        new ConnectionCheck(
            status,
            this::checkApplication,
            f -> describe(f, settings),
            Duration.ofSeconds(2),
            Duration.ofMinutes(2),
            sleeper);
    ChannelAnswer channel = new ChannelAnswer(api, calls, f -> describe(f, settings));
    this.outbox = new ReplyOutbox(NAME, owed, channel, status, backoff, clock);
    this.answers =
        new InteractionAnswers(
            api, calls, channel, status, backoff, clock, settings.botToken() != null);
    this.inbox =
        new InboxTurns(
            NAME, inbox, turns, outbox, ChannelAnswer::of, answers, STALE_AFTER, claim, clock);
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
    answers.start(); // /ask is answered with the interaction's token, bot token or not
    outbox.start();
    if (settings.botToken() == null) {
      inbox.stopTakingOver(); // nothing could post another process's answer
    }
    inbox.start();
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

  /** An {@code /ask}: taken in, its turn runs now, in the background. */
  private boolean takeIn(DiscordInteractions.Ask ask) {
    String key = ask.id().isEmpty() ? "unnamed-" + UUID.randomUUID() : ask.id();
    GatewayInbox.Message message =
        new GatewayInbox.Message(
            NAME,
            key,
            "discord:" + ask.channelId(),
            ask.channelId(),
            null,
            ask.speaker().id(),
            ask.speaker().name(),
            ask.text());
    answers.hold(key, ask.token(), ask.speaker().id(), ask.text());
    try {
      return inbox.takeIn(
          message, ask.id().isEmpty() ? List.of() : List.of(ask.id()), DiscordInteractions.KEEP);
    } catch (RuntimeException e) {
      // Discord never delivers an interaction again: the turn runs unkept rather than not at all.
      log.warn(
          "gateway discord: an /ask in {} could not be kept ({}); it is answered, but a stop before"
              + " its answer loses it",
          ask.channelId(),
          FailureText.of(e));
      turns.run(
          message.channel(),
          ask.speaker(),
          ask.text(),
          new ChannelTurns.Answer() {
            @Override
            public void send(String text) {
              answers.take(message, text, () -> {});
            }

            @Override
            public void interrupted(String note) {
              send("Legio stopped before it could answer; please ask again.");
            }
          });
      return true;
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
    inbox.stopTakingOver();
  }

  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      return; // closed once (serve's drain and its shutdown both close the gateways)
    }
    stopTaking();
    check.close();
    inbox.close();
    turns.close();
    answers.close();
    outbox.close();
    int owed = answers.owedCount();
    if (owed > 0) {
      log.warn(
          "gateway discord: {} message(s) with an interaction's token were not sent before Legio"
              + " stopped; {}",
          owed,
          settings.botToken() == null
              ? "without a bot token ("
                  + settings.botTokenEnv()
                  + ") no later start can answer those /ask commands"
              : "the next start answers those /ask commands in their channels");
    }
    status.stopped();
  }
}
