package dev.legio.backend;

/**
 * A model back-end: something that holds conversations with a language model (the Claude Code CLI,
 * an HTTP API, the built-in offline model).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #open} never blocks on the model; it prepares a session. When a resume id is given
 *       and the back-end still has that conversation, the session continues it ({@link
 *       BackendSession#resumed()} is true); otherwise it starts a new one, and the caller must give
 *       the model the context it lost.
 *   <li>Implementations are thread-safe; one {@link BackendSession} is driven by one thread at a
 *       time (the session engine guarantees it).
 * </ul>
 */
public interface ModelBackend extends AutoCloseable {

  /** The configuration name of this kind of back-end: {@code offline}, {@code claude-cli}, ... */
  String kind();

  /** How the back-end is named wherever replies are shown, e.g. "offline model". */
  String displayName();

  /**
   * True when a conversation can be continued after Legio restarts, given its {@link
   * BackendSession#backendSessionId()}.
   */
  boolean canResume();

  /** Opens (or resumes) a conversation. */
  BackendSession open(SessionSpec spec);

  /**
   * True when {@link #complete} works: the back-end can answer one question outside any session.
   */
  default boolean canComplete() {
    return false;
  }

  /**
   * Asks the model one question outside any session (memory extraction and consolidation use it):
   * nothing is kept of it, no tools are offered.
   *
   * @param systemPrompt the system prompt
   * @param prompt the question, with whatever material it needs
   * @param model the model, or null for the back-end's default
   * @return the model's answer
   * @throws BackendException when the request failed
   * @throws UnsupportedOperationException when {@link #canComplete()} is false
   */
  default String complete(String systemPrompt, String prompt, String model) {
    throw new UnsupportedOperationException(
        "the " + displayName() + " cannot answer questions outside a session");
  }

  /** Releases what the back-end holds (processes, connections). Idempotent. */
  @Override
  default void close() {}
}
