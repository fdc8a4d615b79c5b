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
 *       A surrogate pair is never split.
 *   <li>Cut XML stays well-formed XML, whatever text it carries: a result that is XML (Legio's
 *       tools return {@code <praetorium>}, memoria's elements, {@code <reply>}s; {@link
 *       XmlPrefix#isXml}) is cut only between markup and characters, never inside a tag, an
 *       attribute or a reference such as {@code &amp;}; the elements still open there are closed,
 *       and the marker follows as an XML comment ({@link #xmlMarker}). The end tags count as the
 *       result's text, so such a result may keep less than {@link #MIN_KEPT} characters of its
 *       beginning (nothing but the marker when not even the first tag fits). A document stays a
 *       document, elements side by side stay so.
 *   <li>The messages stay in place and keep their ids, so every tool_use still has its result.
 * </ul>
 */
public final class ToolResultBudget {
  /** The beginning of a result that truncation keeps (less for XML: see the rules). */
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
        String text = r.text();
        int length = text.length();
        int kept = (int) Math.max(Math.min(MIN_KEPT, length), length - excess);
        if (kept < length && XmlPrefix.isXml(text)) {
          XmlPrefix.Cut cut = XmlPrefix.of(text, kept);
          excess -= length - cut.text().length();
          out.add(
              new ChatMessage.ToolResult(
                  r.toolUseId(),
                  r.name(),
                  cut.text() + xmlMarker(length - cut.kept().length()),
                  r.error()));
          continue;
        }
        if (kept > 0 && kept < length && Character.isHighSurrogate(text.charAt(kept - 1))) {
          kept--; // never split a surrogate pair
        }
        if (kept < length) {
          excess -= length - kept;
          out.add(
              new ChatMessage.ToolResult(
                  r.toolUseId(),
                  r.name(),
                  text.substring(0, kept) + marker(length - kept),
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
    return "\n" + notice(leftOut);
  }

  /** What follows the closed beginning of a truncated XML result: the marker as a comment. */
  public static String xmlMarker(int leftOut) {
    return "\n<!-- " + notice(leftOut) + " -->";
  }

  private static String notice(int leftOut) {
    return "[… "
        + leftOut
        + " more characters of this tool result were left out: [context] tool_result_budget]";
  }
}
