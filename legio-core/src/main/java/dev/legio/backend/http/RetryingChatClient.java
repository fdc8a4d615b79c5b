package dev.legio.backend.http;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChatClient} that tries failed requests again, the same way for every vendor; the last
 * link of the chain, so what it throws is for the user.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Connection failures, time-outs, 429 and 5xx are retried as the {@link RetryPolicy} says
 *       (its sleeper waits); each retry is logged and reported as a {@link BackendEvent.Status}
 *       line ({@code ⏳ rate limited; retrying in 2 s}).
 *   <li>A request whose answer had begun to stream is never retried: the text already shown cannot
 *       be taken back, so the turn fails ({@code the answer broke off while it was streaming}).
 *   <li>Anything else fails at once. The failure is a {@link BackendException} whose message says
 *       what happened, where, after how many attempts, with the server's own message and what to do
 *       next ({@link HttpFailure#describe}); the API key never shows in it nor in the logs.
 *   <li>Counting tokens is not retried: a failure is logged and the count is empty.
 * </ul>
 */
public final class RetryingChatClient implements ChatClient {
  private static final Logger log = LoggerFactory.getLogger(RetryingChatClient.class);

  private final ChatClient client;
  private final RetryPolicy retry;
  private final String displayName;
  private final String label;
  private final String secret;

  /**
   * @param displayName how errors name the back-end ({@code Anthropic})
   * @param label who the requests are for, in the logs (the session's owner)
   * @param secret the API key, masked wherever a message could show it; null if none
   */
  public RetryingChatClient(
      ChatClient client, RetryPolicy retry, String displayName, String label, String secret) {
    this.client = Objects.requireNonNull(client, "client");
    this.retry = Objects.requireNonNull(retry, "retry");
    this.displayName = Objects.requireNonNull(displayName, "displayName");
    this.label = Objects.requireNonNull(label, "label");
    this.secret = secret;
  }

  /**
   * Sends {@code request}, retried as the policy says, without status lines.
   *
   * @throws BackendException when it failed for good
   */
  @Override
  public ChatReply send(ChatRequest request, Consumer<String> text) {
    return send(request, text, e -> {});
  }

  /**
   * Sends {@code request}, retried as the policy says, reporting each retry to {@code status}.
   *
   * @param text receives the answer's text as it streams in
   * @throws BackendException when it failed for good
   */
  public ChatReply send(ChatRequest request, Consumer<String> text, Consumer<BackendEvent> status) {
    for (int attempt = 0; ; attempt++) {
      boolean[] streamed = {false};
      try {
        return client.send(
            request,
            piece -> {
              streamed[0] = true;
              text.accept(piece);
            });
      } catch (HttpFailure failure) {
        Duration delay = streamed[0] ? null : retry.delayBefore(attempt, failure);
        if (delay == null) {
          throw new BackendException(
              redact(failure.describe(displayName, client.baseUrl(), attempt, streamed[0])),
              failure);
        }
        log.info(
            "{}: {} ({}); retry {} of {} in {} ms",
            label,
            failure.kind().description(),
            redact(failure.getMessage()),
            attempt + 1,
            retry.maxRetries(),
            delay.toMillis());
        status.accept(
            new BackendEvent.Status(
                "⏳ "
                    + failure.kind().description()
                    + "; retrying in "
                    + Math.max(1, (delay.toMillis() + 999) / 1000)
                    + " s"));
        try {
          retry.sleeper().sleep(delay);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new BackendException(displayName + ": interrupted while waiting to retry");
        }
      }
    }
  }

  /** The API's count, or empty when it cannot count or counting failed (which is logged). */
  @Override
  public OptionalLong countTokens(ChatRequest request) {
    try {
      return client.countTokens(request);
    } catch (HttpFailure e) {
      log.warn("{}: counting tokens failed: {}", label, redact(e.getMessage()));
      return OptionalLong.empty();
    }
  }

  @Override
  public String baseUrl() {
    return client.baseUrl();
  }

  /** Closes the client it wraps. */
  @Override
  public void close() {
    client.close();
  }

  private String redact(String text) {
    return Secrets.redact(text, secret);
  }
}
