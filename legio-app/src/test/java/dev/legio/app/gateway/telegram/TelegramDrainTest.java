package dev.legio.app.gateway.telegram;

import static dev.legio.app.gateway.telegram.TelegramFixture.TOKEN;
import static dev.legio.app.gateway.telegram.TelegramFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.app.gateway.GatewayFixture;
import dev.legio.log.Message;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Telegram message whose turn Legio's shutdown cuts (the server's drain, as {@code legio serve}
 * runs it on SIGTERM, its grace shorter than the turn): its user is not sent the shutdown's note,
 * the update is not confirmed, and the next process answers it once with the model's answer.
 */
class TelegramDrainTest {
  private static final long USER = 42;
  private static final String SECRET = "hook-secret_42";

  @TempDir Path dir;
  private FakeTelegram telegram;
  private GatewayFixture legio;
  private final CountDownLatch turnRunning = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  private void start(String extraToml) throws Exception {
    telegram = new FakeTelegram(TOKEN);
    legio =
        new GatewayFixture(
            dir,
            Map.of("TELEGRAM_BOT_TOKEN", TOKEN, "TELEGRAM_WEBHOOK_SECRET", SECRET),
            toml ->
                toml.replace("shutdown_grace_seconds = 30", "shutdown_grace_seconds = 1")
                    .replaceFirst(
                        "(?s)\\[gateways.telegram\\].*?\\[logging\\]",
                        "[gateways.telegram]\nenabled = true\napi_url = \""
                            + telegram.url()
                            + "\"\n"
                            + extraToml
                            + "\n\n[logging]"),
            (app, doors, deliveries) ->
                List.of(
                    TelegramGateway.create(
                        app.config().telegram(),
                        doors,
                        OperatorCommands.of(
                            app.messageLog(), app.engine(), app.agents(), app.usage()),
                        app.store().gatewayState(),
                        app.store().jobLeases(),
                        Duration.ofSeconds(3),
                        Clock.systemUTC())));
    legio.replies = GatewayFixture.slowOnesWaitFor(turnRunning, release, message -> null);
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (legio != null) {
      legio.close();
    }
    if (telegram != null) {
      telegram.close();
    }
  }

  @Test
  void aTurnTheShutdownCutIsNotAnsweredWithTheNoteTheNextProcessAnswersItOnce() throws Exception {
    start("");
    long updateId = telegram.userWrites(USER, "private", USER, "Ada", "a slow one");
    ObjectNode update = telegram.update(updateId);
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();

    legio.server.close(); // never released: the turn outlasts the 1 s grace
    legio.gateways.close();

    assertThat(telegram.sentTo(Long.toString(USER))).as("the user is not sent the note").isEmpty();
    assertThat(legio.app.store().gatewayState().pending(TelegramGateway.NAME))
        .as("nor is it owed")
        .isEmpty();
    assertThat(legio.app.store().gatewayState().nextOffset(TelegramGateway.NAME))
        .as("the update is not confirmed")
        .isLessThanOrEqualTo(updateId);

    release.countDown(); // the next process's model answers at once
    telegram.deliverAgain(update); // Telegram offers an unconfirmed update again
    legio.restart();

    await("answered", () -> telegram.sentTo(Long.toString(USER)).size() == 1);
    assertThat(telegram.sentTo(Long.toString(USER)).get(0).text()).isEqualTo("the model's answer");
    await(
        "confirmed",
        () -> legio.app.store().gatewayState().nextOffset(TelegramGateway.NAME) == updateId + 1);
    Thread.sleep(300);
    assertThat(telegram.sentTo(Long.toString(USER))).as("answered once").hasSize(1);
    assertThat(legio.app.messageLog().history(100))
        .filteredOn(m -> m.sender().equals("telegram:" + USER))
        .extracting(Message::text)
        .as("the request logged once")
        .singleElement()
        .asString()
        .endsWith("a slow one");
  }

  @Test
  void aWebhookUpdateWhoseTurnTheShutdownCutGets503SoThatTelegramSendsItAgain() throws Exception {
    start(
        "mode = \"webhook\"\npublic_url = \"https://legio.example.com/gateways/telegram/webhook\"");
    long updateId = telegram.userWrites(USER, "private", USER, "Ada", "a slow one");
    CompletableFuture<HttpResponse<String>> delivery =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return legio.post(
                    TelegramGateway.WEBHOOK_PATH,
                    telegram.update(updateId).toString(),
                    TelegramWebhook.SECRET_HEADER,
                    SECRET);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();

    legio.server.close(); // never released: the turn outlasts the 1 s grace

    HttpResponse<String> answer = delivery.get(30, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
    assertThat(answer.body()).contains("shutting down");
    assertThat(telegram.sentTo(Long.toString(USER))).as("the user is not sent the note").isEmpty();
    assertThat(legio.app.store().gatewayState().pending(TelegramGateway.NAME)).isEmpty();
  }
}
