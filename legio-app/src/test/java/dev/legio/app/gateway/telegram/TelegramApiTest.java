package dev.legio.app.gateway.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@link TelegramApi} against the loopback Bot API, its pauses recorded instead of slept. */
class TelegramApiTest {
  private static final String TOKEN = "123456:test-token-for-the-fake";
  private final List<Duration> pauses = new CopyOnWriteArrayList<>();

  private TelegramApi api(FakeTelegram telegram) {
    return new TelegramApi(
        HttpClient.newHttpClient(), telegram.url(), TOKEN, "TELEGRAM_BOT_TOKEN", pauses::add);
  }

  @Test
  void aPageThatIsNotTheBotApisAnswerIsTriedAgainNotTakenAsARefusal() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN)) {
      telegram.answerNotAsTheBotApi("sendMessage", 2, 200, "<html>proxy says hello</html>");

      api(telegram).sendHtml("1001", "the answer");

      assertThat(telegram.sentTo("1001"))
          .singleElement()
          .satisfies(s -> assertThat(s.text()).isEqualTo("the answer"));
      assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }
  }

  @Test
  void oneThatGoesOnIsUnreachableAndSaysToCheckTheApiUrl() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN)) {
      telegram.answerNotAsTheBotApi("sendMessage", 10, 403, "<html>Forbidden by proxy</html>");

      assertThatThrownBy(() -> api(telegram).sendHtml("1001", "the answer"))
          .isInstanceOfSatisfying(
              TelegramApiException.class,
              e -> assertThat(e.kind()).isEqualTo(TelegramApiException.Kind.UNREACHABLE))
          .hasMessageContaining(
              "answered sendMessage with HTTP 403, but not as the Telegram Bot API does")
          .hasMessageContaining("[gateways.telegram] api_url")
          .hasMessageNotContaining(TOKEN);
      assertThat(telegram.sent).isEmpty();
    }
  }

  @Test
  void theBotApisOwnRefusalStaysARefusal() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN)) {
      telegram.failNext("sendMessage", 1, 403, "Forbidden: bot was blocked by the user", null);

      assertThatThrownBy(() -> api(telegram).sendHtml("1001", "the answer"))
          .isInstanceOfSatisfying(
              TelegramApiException.class,
              e -> assertThat(e.kind()).isEqualTo(TelegramApiException.Kind.REFUSED));
      assertThat(pauses).isEmpty();
    }
  }
}
