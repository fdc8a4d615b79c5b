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

  /** Releases what the back-end holds (processes, connections). Idempotent. */
  @Override
  default void close() {}
}
