package dev.legio.session;

/**
 * The three kinds of session owner, each with its own rules: who speaks in the log for it, what it
 * sees, what its session is opened with.
 */
public enum OwnerKind {
  /** The legatus: answers caesar by default, knows the roster, sees the whole log. */
  LEGATUS,
  /** A centurio (an agent under {@code castra/centuriones/}): sees what is addressed to it. */
  CENTURIO,
  /**
   * An external channel ({@code telegram:123}): its own session with the legatus's prompt; the
   * legatus answers in the log for it.
   */
  CHANNEL
}
