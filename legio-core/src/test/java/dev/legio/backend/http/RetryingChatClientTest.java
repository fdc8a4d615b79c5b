package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.Usage;
import dev.legio.testing.RecordingSleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RetryingChatClientTest {
  private static final String KEY = "sk-test-retrying-0123";
  private final ScriptedChatClient script = new ScriptedChatClient();
  private final RecordingSleeper sleeper = new RecordingSleeper();
  private final List<BackendEvent> statuses = new ArrayList<>();
  private final StringBuilder streamed = new StringBuilder();

  private RetryingChatClient client(int maxRetries) {
    return new RetryingChatClient(
        script, RetryPolicy.standard(maxRetries).withSleeper(sleeper), "Vendor", "vorenus", KEY);
  }

  private ChatReply send(RetryingChatClient client) {
    return client.send(request(), streamed::append, statuses::add);
  }

  private static ChatRequest request() {
    return new ChatRequest("m", "system", null, List.of(new ChatMessage.User("hello")), List.of());
  }

  private static HttpFailure status(int status, String message) {
    return new HttpFailure(HttpFailure.kindOf(status), status, null, message, null);
  }

  @Test
  void retryableFailuresWaitAsThePolicySaysReportEachRetryThenAnswer() {
    script
        .fails(status(529, "overloaded"))
        .fails(
            new HttpFailure(
                HttpFailure.Kind.RATE_LIMITED, 429, Duration.ofSeconds(7), "slow", null))
        .fails(HttpFailure.of(HttpFailure.Kind.CONNECT, "ConnectException: refused"))
        .answers("Ave.", 10, 2);

    ChatReply reply = send(client(3));

    assertThat(reply.text()).isEqualTo("Ave.");
    assertThat(streamed.toString()).isEqualTo("Ave.");
    assertThat(script.requests).hasSize(4);
    assertThat(sleeper.waits)
        .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(7), Duration.ofSeconds(4));
    assertThat(statuses)
        .containsExactly(
            new BackendEvent.Status("⏳ server error; retrying in 1 s"),
            new BackendEvent.Status("⏳ rate limited; retrying in 7 s"),
            new BackendEvent.Status("⏳ the server could not be reached; retrying in 4 s"));
  }

  @Test
  void afterTheLastRetryTheTurnFailsSayingHowManyAttemptsAndWhatToDo() {
    script.fails(status(503, "busy")).fails(status(503, "busy")).fails(status(503, "still busy"));

    assertThatThrownBy(() -> send(client(2)))
        .isInstanceOf(BackendException.class)
        .hasMessage(
            "Vendor at http://127.0.0.1:9: server error (HTTP 503) after 3 attempts: still busy."
                + " Try again later.");
    assertThat(sleeper.waits).hasSize(2);
  }

  @Test
  void aClientErrorFailsAtOnceWithTheServersMessageAndTheKeyMasked() {
    script.fails(status(401, "invalid x-api-key " + KEY));

    assertThatThrownBy(() -> send(client(3)))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("the API key was refused (HTTP 401)")
        .hasMessageContaining("invalid x-api-key " + Secrets.MASK)
        .hasMessageNotContaining(KEY)
        .hasMessageEndingWith("environment variable [backend] api_key_env names.");
    assertThat(script.requests).hasSize(1);
    assertThat(sleeper.waits).isEmpty();
  }

  @Test
  void anAnswerThatBrokeOffWhileStreamingIsNeverRetried() {
    script.then(
        (request, text) -> {
          text.accept("The north ro");
          throw HttpFailure.of(HttpFailure.Kind.CONNECT, "IOException: connection reset");
        });

    assertThatThrownBy(() -> send(client(3)))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("the answer broke off while it was streaming")
        .hasMessageEndingWith("The turn was not stored; send the message again.");
    assertThat(streamed.toString()).isEqualTo("The north ro");
    assertThat(script.requests).hasSize(1);
  }

  @Test
  void aServerAskingToWaitLongerThanThePolicyAllowsIsNotWaitedFor() {
    script.fails(
        new HttpFailure(HttpFailure.Kind.RATE_LIMITED, 429, Duration.ofMinutes(10), "quota", null));

    assertThatThrownBy(() -> send(client(3)))
        .hasMessageContaining("rate limited (HTTP 429): quota (the server asked to wait 600 s)");
    assertThat(sleeper.waits).isEmpty();
  }

  @Test
  void aFailedTokenCountIsEmptyNotAFailure() {
    ChatClient counting =
        new ChatClient() {
          @Override
          public ChatReply send(ChatRequest request, java.util.function.Consumer<String> text) {
            return new ChatReply("", List.of(), Usage.NONE);
          }

          @Override
          public OptionalLong countTokens(ChatRequest request) {
            throw status(500, "count failed");
          }

          @Override
          public String baseUrl() {
            return "http://127.0.0.1:9";
          }
        };
    RetryingChatClient client =
        new RetryingChatClient(counting, RetryPolicy.standard(1), "Vendor", "vorenus", KEY);

    assertThat(client.countTokens(request())).isEmpty();
  }
}
