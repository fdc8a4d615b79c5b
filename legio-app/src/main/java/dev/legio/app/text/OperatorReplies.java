package dev.legio.app.text;

import dev.legio.agents.AgentDirectory;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.session.ChannelListing;
import dev.legio.session.Owner;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionResets;
import dev.legio.usage.UsageLedger;
import java.util.List;

/**
 * The answers to the operator's commands {@code /history [N]}, {@code /reset NAME|all} and {@code
 * /status}, as text: one place, so that {@code legio chat}, {@code legio reset} and the Telegram
 * gateway say the same thing. A bad argument is an {@link IllegalArgumentException} whose message
 * is the usage line.
 */
public final class OperatorReplies {
  public static final String HISTORY_USAGE = "Usage: /history [N], N a number from 1 to 10000";
  public static final String RESET_USAGE = "Usage: /reset NAME, or /reset all";

  private OperatorReplies() {}

  /** {@code /history [N]}: the last N messages of the log (default 20), oldest first. */
  public static String history(MessageLog log, String[] words) {
    int n = 20;
    if (words.length > 1) {
      try {
        n = Integer.parseInt(words[1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(HISTORY_USAGE);
      }
      if (n < 1 || n > 10_000) {
        throw new IllegalArgumentException(HISTORY_USAGE);
      }
    }
    List<Message> messages = log.history(n);
    if (messages.isEmpty()) {
      return "(the log is empty)\n";
    }
    StringBuilder out = new StringBuilder();
    messages.forEach(m -> out.append(MessageFormat.human(m)));
    return out.toString();
  }

  /** {@code /reset NAME|all}: resets and says what happened. */
  public static String reset(SessionEngine engine, String[] words) {
    if (words.length != 2) {
      throw new IllegalArgumentException(RESET_USAGE);
    }
    return reset(engine, words[1]);
  }

  /** Resets {@code name} (or {@code all}) and says what happened. */
  public static String reset(SessionEngine engine, String name) {
    if (name.equals("all")) {
      SessionResets.Done resets = engine.resetAll();
      String said =
          resets.closed().isEmpty()
              ? "No active sessions to reset."
              : "Reset: " + String.join(", ", resets.closed()) + ".";
      return resets.busy().isEmpty()
          ? said
          : said
              + " Busy with a turn, so not reset: "
              + String.join(", ", resets.busy())
              + "; reset them again once they have answered.";
    }
    boolean closed = engine.reset(name);
    if (!Owner.of(name).isChannel() && !engine.knownAgents().contains(name)) {
      // An agent removed from the castra whose session row was left (SessionResets' rules).
      return closed
          ? "Reset "
              + name
              + ", an agent no longer configured in this castra: its session record is closed."
          : name
              + ", an agent no longer configured in this castra, has no active session; nothing to"
              + " reset.";
    }
    return closed
        ? "Reset " + name + ": its next request starts a fresh session."
        : name + " has no active session; nothing to reset.";
  }

  /**
   * {@code /status}: the status table of the agents and the open channels ({@link
   * ChannelListing#DEFAULT}) and the damaged session rows, with costs when {@code usage} is given.
   */
  public static String status(SessionEngine engine, AgentDirectory agents, UsageLedger usage) {
    return StatusTable.format(
        engine.status(ChannelListing.DEFAULT),
        agents.problems(),
        usage == null ? null : SessionCosts.of(usage));
  }
}
