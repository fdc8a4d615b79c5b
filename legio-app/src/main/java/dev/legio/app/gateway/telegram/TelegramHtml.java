package dev.legio.app.gateway.telegram;

/**
 * A reply as Telegram's HTML parse mode takes it, so that any text arrives as the agent wrote it.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every {@code <}, {@code >}, {@code &} and {@code "} of the text becomes its entity ({@code
 *       &lt;} ...): hostile text (tags, entities, Telegram's own markup) is shown, never obeyed.
 *   <li>The only tags are the ones this class writes: a {@link Fence fenced} code block becomes
 *       {@code <pre><code class="language-X">...</code></pre>} (closed at the end when the text
 *       leaves it open), and a {@code `span`} on one line becomes {@code <code>span</code>}.
 *   <li>The visible text is never longer than the input (fence lines and backticks go), so a piece
 *       within Telegram's limit stays within it.
 * </ul>
 */
final class TelegramHtml {
  private TelegramHtml() {}

  static String render(String text) {
    StringBuilder out = new StringBuilder(text.length() + 32);
    Fence open = null;
    boolean first = true;
    boolean afterOpen = false;
    for (String line : text.split("\n", -1)) {
      if (open == null) {
        Fence fence = Fence.opening(line);
        if (fence != null) {
          if (!first) {
            out.append('\n');
          }
          out.append(
              fence.language().isEmpty()
                  ? "<pre><code>"
                  : "<pre><code class=\"language-" + fence.language() + "\">");
          open = fence;
          afterOpen = true;
          first = false;
          continue;
        }
        if (!first) {
          out.append('\n');
        }
        inline(line, out);
      } else if (open.closedBy(line)) {
        out.append("</code></pre>");
        open = null;
      } else {
        if (!afterOpen) {
          out.append('\n');
        }
        escape(line, out);
      }
      afterOpen = false;
      first = false;
    }
    if (open != null) {
      out.append("</code></pre>");
    }
    return out.toString();
  }

  /** One line outside code blocks: {@code `spans`} as code, the rest escaped. */
  private static void inline(String line, StringBuilder out) {
    int i = 0;
    while (i < line.length()) {
      int tick = line.indexOf('`', i);
      int end = tick < 0 ? -1 : line.indexOf('`', tick + 1);
      if (tick < 0 || end < 0 || end == tick + 1) {
        escape(line.substring(i), out);
        return;
      }
      escape(line.substring(i, tick), out);
      out.append("<code>");
      escape(line.substring(tick + 1, end), out);
      out.append("</code>");
      i = end + 1;
    }
  }

  static void escape(String s, StringBuilder out) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        default -> out.append(c);
      }
    }
  }
}
