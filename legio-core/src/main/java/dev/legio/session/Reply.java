package dev.legio.session;

import java.util.UUID;

/**
 * One agent's answer to a request, as shown to the user.
 *
 * @param agent who answered (or failed to)
 * @param description the agent's description, for the attribution header
 * @param backendName how the back-end is named ("offline model"), so offline replies are labelled
 * @param text the answer, or a one-line error when {@link #failed()}
 * @param failed true when the agent could not answer (the cause is in the log file)
 * @param messageId the reply's id in the message log; null when nothing was logged
 * @param sequence the reply's sequence in the message log; null when nothing was logged or when the
 *     one who made the reply did not know it (then the log tells it by {@code messageId})
 */
public record Reply(
    String agent,
    String description,
    String backendName,
    String text,
    boolean failed,
    UUID messageId,
    Long sequence) {

  /** A reply whose sequence in the log is not known here. */
  public Reply(
      String agent,
      String description,
      String backendName,
      String text,
      boolean failed,
      UUID messageId) {
    this(agent, description, backendName, text, failed, messageId, null);
  }

  static Reply failure(String agent, String description, String backendName, String text) {
    return new Reply(agent, description, backendName, text, true, null);
  }

  /** The attribution header shown above a reply: {@code ⚔️ vorenus — description} and a rule. */
  public String header() {
    StringBuilder out = new StringBuilder("⚔️ ").append(agent);
    if (!description.isEmpty()) {
      out.append(" — ").append(description);
    }
    if (backendName != null && backendName.startsWith("offline")) {
      out.append(" [").append(backendName).append(']');
    }
    return out.append('\n').append("━━━━━━━━━━━━").toString();
  }
}
