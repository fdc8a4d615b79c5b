package dev.legio.backend.http;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the tool results of one request within {@code [context] tool_result_budget} characters.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only what is sent changes: {@link #apply} returns a new list, the stored conversation keeps
 *       every result whole.
 *   <li>When the results' text adds up to more than the budget, results are truncated oldest first,
 *       each by as much as is still over (but never below its first {@link #MIN_KEPT} characters),
 *       until the total fits; newer results stay whole as long as the older ones can make room.
 *   <li>A truncated result keeps its beginning, followed by a marker saying how many characters
 *       were left out ({@link #marker}); the budget counts the results' own text, not the markers.
 *   <li>The messages stay in place and keep their ids, so every tool_use still has its result.
 * </ul>
 */
public final class ToolResultBudget {
  /** The beginning of a result that truncation always keeps. */
  public static final int MIN_KEPT = 200;

  private ToolResultBudget() {}

  /** {@code messages} with their tool results within {@code budget} characters in all. */
  public static List<ChatMessage> apply(List<ChatMessage> messages, int budget) {
    long total = 0;
    for (ChatMessage m : messages) {
      if (m instanceof ChatMessage.ToolResult r) {
        total += r.text().length();
      }
    }
    long excess = total - budget;
    if (excess <= 0) {
      return messages;
    }
    List<ChatMessage> out = new ArrayList<>(messages.size());
    for (ChatMessage m : messages) {
      if (excess > 0 && m instanceof ChatMessage.ToolResult r) {
        int length = r.text().length();
        int kept = (int) Math.max(Math.min(MIN_KEPT, length), length - excess);
        if (kept > 0 && kept < length && Character.isHighSurrogate(r.text().charAt(kept - 1))) {
          kept--; // never split a surrogate pair
        }
        if (kept < length) {
          excess -= length - kept;
          out.add(
              new ChatMessage.ToolResult(
                  r.toolUseId(),
                  r.name(),
                  r.text().substring(0, kept) + marker(length - kept),
                  r.error()));
          continue;
        }
      }
      out.add(m);
    }
    return out;
  }

  /** What follows the beginning of a truncated result. */
  public static String marker(int leftOut) {
    return "\n[… "
        + leftOut
        + " more characters of this tool result were left out: [context] tool_result_budget]";
  }
}
