package dev.legio.app.gateway.telegram;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.gateway.Gateway;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.SharedOwedReplies;
import dev.legio.config.TelegramSettings;
import dev.legio.session.DispatchListener;
import dev.legio.session.JobLeases;
import dev.legio.store.gateway.GatewayStateStore;
import dev.legio.store.gateway.PollerLease;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Legio's Telegram bot ({@code [gateways.telegram]}): takes updates by long polling or by webhook,
 * answers each through {@link TelegramTurns}, and sends the replies split ({@link
 * TelegramMessageSplitter}) and escaped ({@link TelegramHtml}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>Exactly once</b>: one update at a time; after its turn is logged, the next offset and
 *       the reply messages are stored in one transaction ({@link GatewayStateStore#commitTurn}),
 *       then sent and forgotten one by one. A restart sends what is still owed and asks Telegram
 *       only for later updates, so a message is neither answered twice nor lost. (A process killed
 *       during the turn itself, before the offset is stored, takes that update again: its message,
 *       logged before under its request key, is not logged again, and its turn runs once more only
 *       if no answer of it was logged.) An update whose id is below the stored offset (a webhook's
 *       retry) is acknowledged and skipped. A turn Legio's shutdown cut confirms nothing ({@link
 *       TurnCutByShutdown}): the next process takes the update again and answers it once.
 *   <li><b>One sender</b>: what is owed is sent by one node at a time, the holder of the job lease
 *       {@code outbox:telegram} (as Slack's, {@link SharedOwedReplies}), so that in webhook mode,
 *       where every node takes updates, no reply is sent twice; the sender sends until nothing is
 *       owed, then gives the lease up.
 *   <li><b>One poller</b>: in polling mode only the node holding the {@link PollerLease} polls,
 *       renewing it every third of its TTL, even during a long turn; others wait and take over when
 *       it stops renewing.
 *   <li><b>Never fails Legio</b>: Telegram down at start leaves the gateway {@code waiting} with
 *       the reason while it retries (2 s, doubling to 1 min); a refused token makes it {@code
 *       failing} with what to do, still retrying; a missing token is {@code failing} at once.
 *       Nothing it reports contains the token.
 *   <li>While agents work the chat shows {@code typing} ({@link TypingIndicator}).
 * </ul>
 */
public final class TelegramGateway implements Gateway {
  public static final String NAME = "telegram";
  public static final String WEBHOOK_PATH = "/gateways/telegram/webhook";

  /** The job lease of the node sending Telegram's owed replies, one node at a time. */
  static final String SENDER_JOB = SharedOwedReplies.senderJob(NAME);

  private static final Logger log = LoggerFactory.getLogger(TelegramGateway.class);

  /** How the gateway is tuned; tests shorten the waits. */
  public record Timing(
      int pollTimeoutSeconds, Duration typingEvery, Duration leaseTtl, Duration firstRetry) {
    /** The timing in production, the poller's lease lasting {@code leaseTtl}. */
    public static Timing of(Duration leaseTtl) {
      return new Timing(30, TypingIndicator.EVERY, leaseTtl, Duration.ofSeconds(2));
    }
  }

  private final TelegramSettings settings;
  private final TelegramApi api;
  private final TelegramTurns turns;
  private final GatewayStateStore store;
  private final PollerLease lease;
  private final JobLeases leases;
  private final String holder;
  private final Clock clock;
  private final Timing timing;
  private final TelegramMessageSplitter splitter = TelegramMessageSplitter.telegram();
  private final ScheduledExecutorService timer;
  private final Object turnLock = new Object();
  private final Object sendLock = new Object();
  private final AtomicLong messagesIn = new AtomicLong();
  private final AtomicLong messagesOut = new AtomicLong();
  private volatile GatewayHealth.State state = GatewayHealth.State.WAITING;
  private volatile String detail = "not started";
  private volatile boolean closed;
  private volatile boolean holdsLease;
  private final java.util.concurrent.CountDownLatch stopping =
      new java.util.concurrent.CountDownLatch(1);
  private Thread worker;

  TelegramGateway(
      TelegramSettings settings,
      Conversations conversations,
      OperatorCommands commands,
      GatewayStateStore store,
      JobLeases leases,
      Clock clock,
      TelegramApi.Sleeper sleeper,
      Timing timing) {
    this.settings = settings;
    this.store = store;
    this.clock = clock;
    this.timing = timing;
    this.api =
        new TelegramApi(
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
            settings.apiUrl(),
            settings.token(),
            settings.tokenEnv(),
            sleeper);
    this.turns = new TelegramTurns(conversations, commands, settings.operators());
    this.leases = leases;
    this.holder = ProcessHandle.current().pid() + "@" + host() + "/" + UUID.randomUUID();
    this.lease = new PollerLease(leases, NAME, holder, timing.leaseTtl(), clock);
    this.timer =
        Executors.newScheduledThreadPool(
            2, Thread.ofPlatform().daemon().name("legio-telegram-timer-", 0).factory());
  }

  /**
   * The gateway {@code [gateways.telegram]} describes; its poller's lease lasts {@code leaseTtl}
   * ({@code [sessions] lease_ttl_seconds}, as every lease).
   */
  public static TelegramGateway create(
      TelegramSettings settings,
      Conversations conversations,
      OperatorCommands commands,
      GatewayStateStore store,
      JobLeases leases,
      Duration leaseTtl,
      Clock clock) {
    return new TelegramGateway(
        settings,
        conversations,
        commands,
        store,
        leases,
        clock,
        TelegramApi.Sleeper.REAL,
        Timing.of(leaseTtl));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void start() {
    if (settings.token() == null) {
      set(
          GatewayHealth.State.FAILING,
          settings.tokenEnv()
              + " is not set: put the bot token BotFather gave you in that environment variable"
              + " and restart legio serve");
      return;
    }
    boolean webhook = settings.mode().equals(TelegramSettings.WEBHOOK);
    if (webhook && settings.webhookSecret() == null) {
      set(
          GatewayHealth.State.FAILING,
          settings.webhookSecretEnv()
              + " is not set: webhook mode needs a secret token (letters, digits, _ and -) in"
              + " that environment variable");
      return;
    }
    if (webhook && !settings.webhookSecret().matches("[A-Za-z0-9_-]{1,256}")) {
      set(
          GatewayHealth.State.FAILING,
          settings.webhookSecretEnv()
              + " holds characters Telegram does not accept in a secret token: use 1-256 letters,"
              + " digits, _ and -");
      return;
    }
    set(GatewayHealth.State.WAITING, "connecting to Telegram at " + settings.apiUrl());
    worker =
        Thread.ofPlatform()
            .daemon()
            .name("legio-telegram-" + settings.mode())
            .start(webhook ? this::setUpWebhook : this::poll);
    long renew = Math.max(100, timing.leaseTtl().toMillis() / 3);
    timer.scheduleAtFixedRate(this::renewLease, renew, renew, TimeUnit.MILLISECONDS);
    if (webhook) {
      // no poll loop to retry what could not be sent: try again every few seconds
      timer.scheduleWithFixedDelay(this::retryOwed, renew, renew, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public GatewayHealth health() {
    return new GatewayHealth(NAME, state, detail, messagesIn.get(), messagesOut.get());
  }

  @Override
  public Map<String, Handler> routes() {
    return settings.mode().equals(TelegramSettings.WEBHOOK)
        ? Map.of(WEBHOOK_PATH, new TelegramWebhook(this, settings.webhookSecret()))
        : Map.of();
  }

  // ------------------------------------------------------------------ polling

  private void poll() {
    Duration retry = timing.firstRetry();
    boolean checked = false;
    boolean backOff = false; // replies could not be sent: wait before trying again
    while (!closed) {
      try {
        if (!lease.hold()) {
          holdsLease = false;
          set(
              GatewayHealth.State.WAITING,
              "another Legio node polls Telegram; this one takes over if it stops");
          sleep(timing.leaseTtl().dividedBy(3));
          continue;
        }
        holdsLease = true;
        if (!checked) {
          api.getMe();
          api.deleteWebhook();
          checked = true;
        }
        if (backOff) {
          sleep(retry);
          retry = min(retry.multipliedBy(2), Duration.ofMinutes(1));
          backOff = false;
        }
        if (!sendPending()) {
          backOff = true; // owed replies go first, in order
          continue;
        }
        List<TelegramApi.Update> updates =
            api.getUpdates(store.nextOffset(NAME), timing.pollTimeoutSeconds());
        set(GatewayHealth.State.CONNECTED, "");
        retry = timing.firstRetry();
        for (TelegramApi.Update update : updates) {
          if (closed || !holdsLease) {
            break;
          }
          if (!process(update)) {
            backOff = true;
            break;
          }
        }
      } catch (TelegramApiException e) {
        if (closed) {
          return;
        }
        failed(e);
        sleep(retry);
        retry = min(retry.multipliedBy(2), Duration.ofMinutes(1));
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        log.error("telegram: polling failed; trying again", e);
        set(GatewayHealth.State.FAILING, "polling failed: " + api.mask(e.getMessage()));
        sleep(retry);
        retry = min(retry.multipliedBy(2), Duration.ofMinutes(1));
      }
    }
  }

  private void renewLease() {
    if (closed || !holdsLease) {
      return;
    }
    try {
      holdsLease = lease.hold();
    } catch (RuntimeException e) {
      log.warn("telegram: could not renew the poller lease: {}", e.getMessage());
    }
  }

  // ------------------------------------------------------------------ webhook

  private void setUpWebhook() {
    Duration retry = timing.firstRetry();
    while (!closed) {
      try {
        api.getMe();
        api.setWebhook(settings.publicUrl(), settings.webhookSecret());
        set(GatewayHealth.State.CONNECTED, "");
        sendPending();
        return;
      } catch (TelegramApiException e) {
        failed(e);
      } catch (RuntimeException e) {
        log.error("telegram: setting the webhook failed; trying again", e);
        set(GatewayHealth.State.FAILING, "setWebhook failed: " + api.mask(e.getMessage()));
      }
      sleep(retry);
      retry = min(retry.multipliedBy(2), Duration.ofMinutes(1));
    }
  }

  // ------------------------------------------------------------------ one update

  /**
   * Answers one update exactly once (see the class comment; a replay, an update processed before,
   * is skipped), then sends what is owed. Returns false when some reply could not be sent now.
   *
   * @throws TurnCutByShutdown when Legio's shutdown cut its turn: the update is left unconfirmed
   */
  boolean process(TelegramApi.Update update) {
    synchronized (turnLock) {
      if (update.updateId() < store.nextOffset(NAME)) {
        return true; // a replay: answered before
      }
      Incoming in = Incoming.of(update.body());
      List<GatewayStateStore.Outbound> owed = new ArrayList<>();
      if (in != null) {
        messagesIn.incrementAndGet();
        List<String> answers;
        try (TypingIndicator typing =
            TypingIndicator.start(timer, timing.typingEvery(), in.chatId(), api::typing)) {
          answers = turns.answer(in, DispatchListener.NONE);
        } catch (TurnCutByShutdown e) {
          log.info("telegram: {}; update {} is not confirmed", e.getMessage(), update.updateId());
          throw e; // nothing is committed: the update stays for the next process
        } catch (RuntimeException e) {
          // a message Legio cannot answer must not block every later one: say so and go on
          log.error("telegram: update {} could not be answered", update.updateId(), e);
          answers = List.of("Legio could not answer this message; see Legio's log file.");
        }
        for (String answer : answers) {
          for (String piece : splitter.split(answer)) {
            if (piece.isBlank()) {
              continue; // Telegram refuses an empty message
            }
            owed.add(new GatewayStateStore.Outbound(0, in.chatId(), TelegramHtml.render(piece)));
          }
        }
      }
      store.commitTurn(NAME, update.updateId() + 1, owed, clock.instant());
    }
    return sendPending();
  }

  private void retryOwed() {
    if (closed || state == GatewayHealth.State.FAILING) {
      return;
    }
    try {
      sendPending();
    } catch (RuntimeException e) {
      log.warn("telegram: could not send the replies owed: {}", api.mask(e.getMessage()));
    }
  }

  /**
   * Sends the replies still owed, oldest first; stops at the first that cannot go now. Returns true
   * when nothing is owed any more.
   */
  boolean sendPending() {
    synchronized (sendLock) {
      if (!leases.tryTake(SENDER_JOB, holder, clock.instant(), timing.leaseTtl())) {
        return false; // another node is sending what is owed; this one looks again later
      }
      try {
        return sendOwedWhileHoldingTheSenderLease();
      } finally {
        leases.release(SENDER_JOB, holder);
      }
    }
  }

  private boolean sendOwedWhileHoldingTheSenderLease() {
    for (List<GatewayStateStore.Outbound> owed = store.pending(NAME);
        !owed.isEmpty();
        owed = store.pending(NAME)) {
      for (GatewayStateStore.Outbound reply : owed) {
        if (!leases.tryTake(SENDER_JOB, holder, clock.instant(), timing.leaseTtl())) {
          return false; // renewed before each send; lost (a long pause): another node sends
        }
        try {
          api.sendHtml(reply.chatId(), reply.text());
          messagesOut.incrementAndGet();
          if (state == GatewayHealth.State.WAITING && holdsLeaseOrWebhook()) {
            set(GatewayHealth.State.CONNECTED, ""); // Telegram answers again
          }
        } catch (TelegramApiException e) {
          if (e.kind() != TelegramApiException.Kind.REFUSED) {
            failed(e);
            return false; // kept: sent at the next attempt
          }
          // a chat that blocked the bot or was deleted: the reply cannot ever go
          log.warn(
              "telegram: a reply to chat {} was refused and dropped: {}",
              reply.chatId(),
              e.getMessage());
        }
        store.sent(reply.id());
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ health

  private boolean holdsLeaseOrWebhook() {
    return holdsLease || settings.mode().equals(TelegramSettings.WEBHOOK);
  }

  private void failed(TelegramApiException e) {
    GatewayHealth.State s =
        e.kind() == TelegramApiException.Kind.UNAUTHORIZED
            ? GatewayHealth.State.FAILING
            : GatewayHealth.State.WAITING;
    String why =
        e.kind() == TelegramApiException.Kind.REFUSED && e.status() == 409
            ? e.getMessage()
                + ": another program uses this bot's updates (another poller, or a webhook);"
                + " stop it or give Legio its own bot"
            : e.getMessage();
    set(s, why + (s == GatewayHealth.State.WAITING ? "; retrying" : ""));
  }

  private void set(GatewayHealth.State s, String why) {
    if (s != state || !why.equals(detail)) {
      if (s == GatewayHealth.State.CONNECTED) {
        log.info("telegram: connected ({} mode)", settings.mode());
      } else {
        log.warn("telegram: {}: {}", s.name().toLowerCase(java.util.Locale.ROOT), why);
      }
    }
    state = s;
    detail = why;
  }

  @Override
  public void stopTaking() {
    closed = true; // the poller stops after the update in hand; the webhook answers 503
    stopping.countDown();
    api.cancelPoll();
  }

  /** False once the gateway stopped taking updates. */
  boolean takingUpdates() {
    return !closed;
  }

  @Override
  public void close() {
    stopTaking();
    Thread w = worker;
    if (w != null) {
      try {
        // a long poll or a wait ends at once; a turn or a send in flight gets time to finish
        w.join(Duration.ofSeconds(10));
        if (w.isAlive()) {
          w.interrupt();
          w.join(Duration.ofSeconds(2));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    timer.shutdownNow();
    if (holdsLease) {
      try {
        lease.release();
      } catch (RuntimeException e) {
        log.warn("telegram: could not release the poller lease: {}", e.getMessage());
      }
    }
    state = GatewayHealth.State.STOPPED;
    detail = "stopped";
  }

  /** Waits {@code d}, or less when the gateway is closed meanwhile. */
  private void sleep(Duration d) {
    try {
      stopping.await(d.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String host() {
    String h = System.getenv("HOSTNAME");
    return h == null || h.isBlank() ? "localhost" : h;
  }
}
