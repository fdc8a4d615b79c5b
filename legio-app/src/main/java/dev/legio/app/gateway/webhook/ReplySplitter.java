package dev.legio.app.gateway.webhook;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a reply into messages a platform accepts (Discord: 2,000 characters).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each part is at most {@code limit} characters (UTF-16 units, as the platforms count).
 *   <li>Cuts fall between lines (the line break at a cut is dropped); only a line longer than a
 *       whole message is cut inside, never inside a surrogate pair. No other character is lost.
 *   <li>A cut inside a code block ({@code ```lang} ... {@code ```}) closes the block at the end of
 *       its part and reopens it, with the same language, at the start of the next, so that no part
 *       shows code as text or text as code.
 * </ul>
 */
public final class ReplySplitter {
  private static final String FENCE = "```";
  private static final String CLOSE = "\n" + FENCE;

  /** The longest fence line reopened as it was; a longer one is reopened as a bare fence. */
  private static final int MAX_REOPEN = 40;

  private final int limit;
  private final List<String> parts = new ArrayList<>();
  private final StringBuilder part = new StringBuilder();
  private String fence; // the fence line of the code block open at the end of the part, or null
  private boolean hasContent; // the part holds a line of the text (not only a reopened fence)
  private boolean reopened; // the part starts with a fence this splitter added

  private ReplySplitter(int limit) {
    this.limit = limit;
  }

  /** The parts of {@code text}, in order; {@code text} itself when it fits. */
  public static List<String> split(String text, int limit) {
    if (limit < 100) {
      throw new IllegalArgumentException("limit must be at least 100, not " + limit);
    }
    if (text.length() <= limit) {
      return List.of(text);
    }
    ReplySplitter splitter = new ReplySplitter(limit);
    for (String line : text.split("\n", -1)) {
      splitter.add(line);
    }
    return splitter.finish();
  }

  private void add(String line) {
    String after = isFence(line) ? (fence == null ? reopening(line) : null) : fence;
    String rest = line;
    while (true) {
      String sep = part.isEmpty() ? "" : "\n";
      int closing = after != null ? CLOSE.length() : 0;
      if (part.length() + sep.length() + rest.length() + closing <= limit) {
        part.append(sep).append(rest);
        hasContent = true;
        break;
      }
      if (hasContent) {
        flush();
        continue;
      }
      // a line longer than a whole message: cut it
      int room = limit - part.length() - sep.length() - (fence != null ? CLOSE.length() : 0);
      int cut = Character.isHighSurrogate(rest.charAt(room - 1)) ? room - 1 : room;
      part.append(sep).append(rest, 0, cut);
      hasContent = true;
      flush();
      // the rest of the line goes on in the next part (after a reopened fence, on a line of its
      // own)
      rest = rest.substring(cut);
      if (rest.isEmpty()) {
        break;
      }
    }
    fence = after;
  }

  /** Ends the part (closing an open block) and starts the next (reopening it). */
  private void flush() {
    parts.add(fence != null ? part + CLOSE : part.toString());
    part.setLength(0);
    hasContent = false;
    reopened = fence != null;
    if (reopened) {
      part.append(fence);
    }
  }

  private List<String> finish() {
    if (hasContent) {
      parts.add(fence != null && reopened ? part + CLOSE : part.toString());
    }
    return parts;
  }

  private static boolean isFence(String line) {
    return line.strip().startsWith(FENCE);
  }

  private static String reopening(String fenceLine) {
    String stripped = fenceLine.strip();
    return stripped.length() <= MAX_REOPEN && !stripped.substring(3).contains(FENCE)
        ? stripped
        : FENCE;
  }
}
