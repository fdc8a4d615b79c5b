package dev.legio.backend;

import java.util.function.Consumer;

/** One conversation with a model back-end. Driven by one thread at a time. */
public interface BackendSession extends AutoCloseable {

  /** The back-end's own id for this conversation (to resume it later), or null if it has none. */
  String backendSessionId();

  /** True when this session continues an earlier conversation (the resume id was honoured). */
  boolean resumed();

  /**
   * Sends one user turn and waits for the model's answer, passing intermediate events (status,
   * text, tool calls) to {@code events} as they arrive.
   *
   * @throws BackendException when the turn failed; the conversation is then as it was before
   */
  TurnResult send(String userMessage, Consumer<BackendEvent> events);

  /**
   * Sends one user turn that started at {@code start}: a back-end with a turn time-out counts it
   * from there ({@link TurnStart}), so a turn sent again on a new session gets only what is left of
   * it. By default the same as {@link #send(String, Consumer)}, for back-ends without one.
   *
   * @throws BackendException when the turn failed; {@link TurnTimeoutException} when no time is
   *     left
   */
  default TurnResult send(String userMessage, Consumer<BackendEvent> events, TurnStart start) {
    return send(userMessage, events);
  }

  /** Ends the conversation and frees what it holds. Idempotent. */
  @Override
  void close();
}
