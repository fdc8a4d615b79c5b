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

  /** Ends the conversation and frees what it holds. Idempotent. */
  @Override
  void close();
}
