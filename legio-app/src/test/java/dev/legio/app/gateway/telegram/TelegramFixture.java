package dev.legio.app.gateway.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.app.conversation.Conversations;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ForwardingModelBackend;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.TelegramSettings;
import dev.legio.session.SessionEngine;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A fresh workspace ({@code legio init}) on the offline model, with {@code [gateways.telegram]}
 * pointing at a {@link FakeTelegram}, and gateways built on it with short waits. The model records
 * each session's spec (owner and role) and waits about a second for a message holding {@code
 * #slow}. The API client's back-offs and {@code retry_after} waits are recorded as asked ({@link
 * #sleeps}) and slept for a tenth of that ({@link #SLEEP_DIVISOR}), so that the retry tests do not
 * wait out Telegram's real seconds.
 */
final class TelegramFixture implements AutoCloseable {
  static final String TOKEN = "123456789:AAE-fixture-secret-token-xyz";
  static final long OPERATOR = 1001;
  static final TelegramGateway.Timing FAST =
      new TelegramGateway.Timing(
          1, Duration.ofMillis(200), Duration.ofSeconds(3), Duration.ofMillis(200));

  final Path root;
  final LegioApp app;
  final SessionEngine engine;
  final Map<String, SessionSpec> specs = new ConcurrentHashMap<>();

  /** The waits the API client asked for, as asked. */
  final List<Duration> sleeps = new CopyOnWriteArrayList<>();

  /** The API client's waits are slept for this fraction of what it asks. */
  static final int SLEEP_DIVISOR = 10;

  private final List<TelegramGateway> gateways = new ArrayList<>();

  TelegramFixture(Path dir, String apiUrl, String extraToml) throws Exception {
    this(dir, apiUrl, extraToml, TOKEN, null);
  }

  TelegramFixture(Path dir, String apiUrl, String extraToml, String token, Path existingRoot)
      throws Exception {
    if (existingRoot == null) {
      StringWriter out = new StringWriter();
      int code =
          Main.run(
              new String[] {"init", "legion"},
              Map.of(),
              dir,
              new PrintWriter(out, true),
              new PrintWriter(out, true));
      assertThat(code).as(out.toString()).isZero();
      root = dir.resolve("legion");
      Path toml = root.resolve("legio.toml");
      String text =
          Files.readString(toml)
              .replace("kind = \"auto\"", "kind = \"offline\"")
              .replace("\nport = 8740", "\nport = 0")
              .replace("http_port = 8740", "http_port = 0");
      text =
          text.replaceFirst(
              "(?s)\\[gateways.telegram\\].*?\\[logging\\]",
              "[gateways.telegram]\nenabled = true\napi_url = \""
                  + apiUrl
                  + "\"\noperators = ["
                  + OPERATOR
                  + "]\n"
                  + extraToml
                  + "\n\n[logging]");
      Files.writeString(toml, text);
    } else {
      root = existingRoot;
    }
    Map<String, String> env =
        token == null
            ? Map.of("TELEGRAM_WEBHOOK_SECRET", "hook-secret_42")
            : Map.of("TELEGRAM_BOT_TOKEN", token, "TELEGRAM_WEBHOOK_SECRET", "hook-secret_42");
    app = LegioApp.open(new Workspace(root), env, Clock.systemUTC());
    engine =
        SessionEngine.builder()
            .messageLog(app.messageLog())
            .store(app.sessions())
            .agents(app.agents())
            .backend(new RecordingBackend(new OfflineBackend()))
            .settings(app.config().sessions())
            .clock(Clock.systemUTC())
            .build();
  }

  TelegramSettings settings() {
    return app.config().telegram();
  }

  /** A gateway on this workspace, not started; closed with the fixture. */
  TelegramGateway gateway() {
    return gateway(settings());
  }

  TelegramGateway gateway(TelegramSettings settings) {
    TelegramGateway g =
        new TelegramGateway(
            settings,
            new Conversations(engine, app.config().sessions()),
            OperatorCommands.of(app.messageLog(), engine, app.agents(), app.usage()),
            app.store().gatewayState(),
            app.store().jobLeases(),
            Clock.systemUTC(),
            d -> {
              sleeps.add(d);
              Thread.sleep(d.dividedBy(SLEEP_DIVISOR));
            },
            FAST);
    gateways.add(g);
    return g;
  }

  /** Waits (up to 30 s) until {@code condition} holds. */
  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  @Override
  public void close() {
    gateways.forEach(TelegramGateway::close);
    engine.close();
    app.close();
  }

  /** The offline model, recording each session's spec; {@code #slow} takes about a second. */
  final class RecordingBackend extends ForwardingModelBackend {
    RecordingBackend(ModelBackend inner) {
      super(inner);
    }

    @Override
    public BackendSession open(SessionSpec spec) {
      specs.put(spec.owner(), spec);
      return super.open(spec);
    }

    @Override
    protected TurnResult send(
        BackendSession session,
        String userMessage,
        Consumer<BackendEvent> events,
        TurnStart start) {
      if (userMessage.contains("#slow")) {
        try {
          Thread.sleep(1200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return session.send(userMessage, events, start);
    }
  }
}
