package dev.legio.app.gateway.slack;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.gateway.Gateway;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ChannelTurns;
import dev.legio.app.gateway.webhook.ConnectionCheck;
import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.InboxTurns;
import dev.legio.app.gateway.webhook.OwedReplies;
import dev.legio.app.gateway.webhook.OwedReply;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.app.gateway.webhook.RefusalLog;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.app.gateway.webhook.ReplySplitter;
import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.SlackSettings;
import dev.legio.store.gateway.GatewayInbox;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slack users talking to Legio through a Slack app: Slack's Events API posts to {@link #PATH} on
 * Legio's server ({@link SlackEvents}); a mention of the app or a direct message to it is a turn of
 * the channel session {@code slack:CHANNEL}; the reply goes back with {@code chat.postMessage} in
 * the thread of the message.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Starting never fails Legio: a missing secret leaves the gateway failing and saying which
 *       variable to set; an unreachable Slack leaves it waiting while it checks again ({@code
 *       auth.test}) with a back-off; a refused token leaves it failing.
 *   <li>A message is kept in Legio's database before Slack hears it arrived, and forgotten with its
 *       answer kept ({@link InboxTurns}): a process killed during its turn leaves it to the next
 *       process (on this host at once, on another node once its claim ran out), which answers it
 *       once, logging the request once.
 *   <li>A reply is kept in Legio's database before it is sent ({@link ReplyOutbox} over {@link
 *       dev.legio.app.gateway.webhook.SharedOwedReplies}): a Slack that is down for a while, or a
 *       restart, delays it and never loses it. Each send retries as {@link PlatformCalls} says (429
 *       after {@code Retry-After}, 5xx with a bounded back-off), then the outbox tries again later;
 *       a reply Slack refuses for good (a channel the app left) is dropped with a warning.
 *   <li>Replies are escaped for mrkdwn ({@link SlackText}) and cut into messages of at most {@link
 *       #MAX_CHARS} characters ({@link ReplySplitter}).
 * </ul>
 */
public final class SlackGateway implements Gateway {
  private static final Logger log = LoggerFactory.getLogger(SlackGateway.class);

  public static final String NAME = "slack";
  public static final String PATH = "/gateways/slack/events";

  /** The longest text sent in one message (Slack advises at most 4,000 characters). */
  public static final int MAX_CHARS = 3_500;

  private final SlackSettings settings;
  private final GatewayStatus status = new GatewayStatus(NAME);
  private final ChannelTurns turns;
  private final PlatformCalls calls;
  private final SlackApi api;
  private final SlackEvents events;
  private final ConnectionCheck check;
  private final ReplyOutbox outbox;
  private final InboxTurns inbox;
  private final java.util.concurrent.atomic.AtomicBoolean closing =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile String botUserId;

  /**
   * @param inbox where the messages taken in are kept until their answers are
   * @param claim how long a message's claim by this process lasts unless renewed ({@code [sessions]
   *     lease_ttl_seconds})
   * @param owed where the replies owed are kept until Slack takes them
   * @param backoff how long the outbox waits between rounds while Slack cannot take a reply
   */
  public SlackGateway(
      SlackSettings settings,
      Conversations doors,
      GatewayInbox inbox,
      Duration claim,
      OwedReplies owed,
      ReplyOutbox.Backoff backoff,
      Clock clock,
      RetryPolicy.Sleeper sleeper) {
    this.settings = settings;
    this.turns = new ChannelTurns(doors, "legio-slack-turn-");
    this.calls = PlatformCalls.standard(sleeper);
    this.api =
        settings.botToken() == null ? null : new SlackApi(settings.apiUrl(), settings.botToken());
    this.events =
        new SlackEvents(
            settings.signingSecret() == null
                ? null
                : new SlackSignature(settings.signingSecret(), clock),
            new RefusalLog(
                NAME,
                "If these are Slack's own requests, check that "
                    + settings.signingSecretEnv()
                    + " holds the app's Signing Secret (Basic Information) and that this"
                    + " machine's clock is right.",
                clock),
            status,
            this::botUserId,
            this::takeIn);
    this.check =
        new ConnectionCheck(
            status,
            () -> botUserId = api.authTest(),
            this::describe,
            Duration.ofSeconds(2),
            Duration.ofMinutes(2),
            sleeper);
    this.outbox = new ReplyOutbox(NAME, owed, new Sending(), status, backoff, clock);
    this.inbox =
        new InboxTurns(
            NAME,
            inbox,
            turns,
            outbox,
            (message, answer) ->
                OwedReply.answer(
                    message.chatId(), message.thread(), answer, MAX_CHARS, SlackText::escape, null),
            claim,
            clock);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Map<String, Handler> routes() {
    return Map.of(PATH, events);
  }

  @Override
  public void start() {
    List<String> missing = new ArrayList<>();
    if (settings.signingSecret() == null) {
      missing.add(
          settings.signingSecretEnv() + " (the app's signing secret, on Basic Information)");
    }
    if (settings.botToken() == null) {
      missing.add(settings.botTokenEnv() + " (the bot token, on OAuth & Permissions, xoxb-...)");
    }
    if (!missing.isEmpty()) {
      status.failing(
          "set "
              + String.join(" and ", missing)
              + " in the environment of legio serve and restart it ([gateways.slack] in"
              + " legio.toml names the variables)");
      log.warn("gateway slack: {}", status.health().detail());
      return;
    }
    status.waiting("checking the bot token with Slack at " + settings.apiUrl());
    check.start("legio-slack-check");
    outbox.start();
    inbox.start();
  }

  private String botUserId() {
    return botUserId;
  }

  /** A message for the app: taken in, its turn runs now, in the background. */
  private boolean takeIn(SlackEvents.Message message, String eventId, List<String> deliveryIds) {
    if (api == null) {
      // No bot token: a reply could not be posted, so no model turn is spent on it.
      log.warn(
          "gateway slack: a message in {} was not answered: set {} in the environment of legio"
              + " serve and restart it",
          message.channel(),
          settings.botTokenEnv());
      return true;
    }
    return inbox.takeIn(
        new GatewayInbox.Message(
            NAME,
            message.key(eventId),
            "slack:" + message.channel(),
            message.channel(),
            message.threadTs(),
            message.speaker().id(),
            message.speaker().name(),
            message.text()),
        deliveryIds,
        SlackEvents.KEEP);
  }

  /** One reply to Slack: {@code chat.postMessage} in its thread. */
  private final class Sending implements ReplyOutbox.Platform {
    @Override
    public void send(OwedReply reply) {
      calls.call(
          () -> {
            api.postMessage(reply.chat(), reply.thread(), reply.text());
            return null;
          });
    }

    /** Kept: Slack unreachable, slow or refusing the token (fixed by a restart with a new one). */
    @Override
    public boolean keep(HttpFailure failure) {
      return failure.kind().retryable() || failure.kind() == HttpFailure.Kind.AUTH;
    }

    @Override
    public String describe(HttpFailure failure) {
      return SlackGateway.this.describe(failure);
    }
  }

  /** What a user reads for a failed call: what happened and what to do; never the token. */
  private String describe(HttpFailure f) {
    String where = "Slack at " + settings.apiUrl();
    return switch (f.kind()) {
      case AUTH ->
          where
              + " refuses the bot token in "
              + settings.botTokenEnv()
              + " ("
              + f.getMessage()
              + "): copy the Bot User OAuth Token (xoxb-...) from OAuth & Permissions and"
              + " reinstall the app if its scopes changed";
      case CONNECT, TIMEOUT -> "cannot reach " + where + " (" + f.getMessage() + ")";
      case RATE_LIMITED, SERVER -> where + " is not answering (" + f.getMessage() + ")";
      case REQUEST, MALFORMED -> where + " refused a request (" + f.getMessage() + ")";
    };
  }

  @Override
  public GatewayHealth health() {
    return status.health();
  }

  @Override
  public void stopTaking() {
    events.refuseNewRequests();
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
    outbox.close();
    if (api != null) {
      api.close();
    }
    status.stopped();
  }
}
