package dev.legio.backend.http;

import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * One vendor's chat API: turns a {@link ChatRequest} into its wire format, sends it, streams the
 * answer and reads the usage. It holds no conversation and does not retry: {@link HttpBackend}
 * keeps the conversation and {@link RetryingChatClient} retries, the same way for every vendor.
 */
public interface ChatClient extends AutoCloseable {

  /**
   * Sends one request, passing the answer's text to {@code text} as it streams in.
   *
   * @throws HttpFailure when the request failed or its answer could not be read
   */
  ChatReply send(ChatRequest request, Consumer<String> text);

  /**
   * The exact number of input tokens {@code request} would cost, where the API can count them
   * (Anthropic's count-tokens endpoint); empty where it cannot.
   */
  default OptionalLong countTokens(ChatRequest request) {
    return OptionalLong.empty();
  }

  /** Where requests go, for messages ({@code https://api.anthropic.com}). Holds no secret. */
  String baseUrl();

  @Override
  default void close() {}
}
