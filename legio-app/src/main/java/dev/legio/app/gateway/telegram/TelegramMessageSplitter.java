package dev.legio.app.gateway.telegram;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a reply into messages Telegram accepts (at most {@link #TELEGRAM_LIMIT} characters, counted
 * in UTF-16 units as Telegram counts them).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A text within the limit is one message, unchanged.
 *   <li>A cut falls on a paragraph boundary (a blank line) when one lies in the second half of the
 *       room, else on the last line break, else (a single line longer than the room) on the last
 *       space, else anywhere but inside a surrogate pair. A line break or space at the cut is
 *       dropped; nothing else is.
 *   <li>A cut inside a code block ({@link Fence}) closes the fence at the end of the message and
 *       opens it again, with its language, at the start of the next: every message's fences are
 *       balanced. The fence lines added count towards the limit.
 *   <li>Joining the pieces' {@link Piece#body() bodies} with their {@link Piece#separator()
 *       separators} gives the text back exactly.
 * </ul>
 */
final class TelegramMessageSplitter {
  static final int TELEGRAM_LIMIT = 4096;

  /** The longest fence marker {@link Fence} knows. */
  private static final int MAX_MARKER = 16;

  private final int limit;

  TelegramMessageSplitter(int limit) {
    if (limit < 128) {
      throw new IllegalArgumentException("limit must be at least 128, got " + limit);
    }
    this.limit = limit;
  }

  static TelegramMessageSplitter telegram() {
    return new TelegramMessageSplitter(TELEGRAM_LIMIT);
  }

  /**
   * One message: {@code reopen} (a fence line and a line break, or empty), the original {@code
   * body}, {@code close} (a line break and the fence's closing line, or empty); {@code separator}
   * is what was dropped after the body at the cut ({@code "\n"}, {@code " "}, or {@code ""}; empty
   * for the last piece).
   */
  record Piece(String reopen, String body, String close, String separator) {
    String text() {
      return reopen + body + close;
    }
  }

  /** The messages of {@code text}. */
  List<String> split(String text) {
    return pieces(text).stream().map(Piece::text).toList();
  }

  List<Piece> pieces(String text) {
    List<Piece> out = new ArrayList<>();
    int pos = 0;
    Fence open = null; // the fence open at pos
    while (true) {
      String reopen = open == null ? "" : open.openLine() + "\n";
      int room = limit - reopen.length();
      if (text.length() - pos <= room) {
        // the rest fits (a fence the text never closes stays as the text has it); after a cut,
        // nothing left is no message
        if (pos < text.length() || out.isEmpty()) {
          out.add(new Piece(reopen, text.substring(pos), "", ""));
        }
        return out;
      }
      Cut cut = chooseCut(text, pos, room, open);
      Fence after = fenceAt(text, pos, cut.end, open);
      String close = after == null ? "" : "\n" + after.closeLine();
      out.add(new Piece(reopen, text.substring(pos, cut.end), close, cut.separator));
      pos = cut.end + cut.separator.length();
      // A cut at a line break leaves the next line start; the fence state carries over.
      open = after;
    }
  }

  private record Cut(int end, String separator) {}

  /** The best cut in {@code text[pos, pos + room]}, leaving room for a closing fence line. */
  private Cut chooseCut(String text, int pos, int room, Fence open) {
    int max = Math.min(text.length(), pos + room);
    Cut best = null;
    Cut paragraph = null;
    // line breaks: the last one whose piece (with a closing fence if needed) fits
    for (int i = max; i > pos; i--) {
      if (i < text.length() && text.charAt(i) == '\n') {
        Fence after = fenceAt(text, pos, i, open);
        int need = (i - pos) + (after == null ? 0 : 1 + after.closeLine().length());
        if (need <= room) {
          if (best == null) {
            best = new Cut(i, "\n");
          }
          boolean blankNext = i + 1 < text.length() && text.charAt(i + 1) == '\n';
          if (blankNext && i - pos >= room / 2) {
            paragraph = new Cut(i, "\n");
            break;
          }
          if (i - pos < room / 2) {
            break;
          }
        }
      }
    }
    if (paragraph != null) {
      return paragraph;
    }
    if (best != null) {
      return best;
    }
    // one line longer than the room: cut inside it, leaving room for the longest closing fence,
    // and never where the rest of the line would read as a fence line of its own
    int budget = room - 1 - MAX_MARKER;
    int end = pos + budget;
    Fence state = fenceAt(text, pos, text.lastIndexOf('\n', end - 1) + 1, open);
    for (int i = end; i > pos + budget / 2; i--) {
      if (text.charAt(i) == ' ' && !looksLikeFence(text, i + 1, state)) {
        return new Cut(i, " ");
      }
    }
    while (end > pos + 1
        && (looksLikeFence(text, end, state)
            || Character.isLowSurrogate(text.charAt(end))
                && Character.isHighSurrogate(text.charAt(end - 1)))) {
      end--;
    }
    return new Cut(end, "");
  }

  /** Whether the rest of the line from {@code at} would read as a fence line. */
  private static boolean looksLikeFence(String text, int at, Fence state) {
    int nl = text.indexOf('\n', at);
    String rest = text.substring(at, nl < 0 ? text.length() : nl);
    return state == null ? Fence.opening(rest) != null : state.closedBy(rest);
  }

  /**
   * The fence open after reading {@code text[from, to)} when {@code open} was open at {@code from}
   * (which starts a line). A line cut short at {@code to} counts only if complete.
   */
  static Fence fenceAt(String text, int from, int to, Fence open) {
    Fence state = open;
    int start = from;
    while (start < to) {
      int nl = text.indexOf('\n', start);
      int end = nl < 0 || nl > to ? to : nl;
      boolean complete = nl >= 0 ? nl <= to : to == text.length();
      if (complete) {
        String line = text.substring(start, end);
        if (state == null) {
          state = Fence.opening(line);
        } else if (state.closedBy(line)) {
          state = null;
        }
      }
      if (nl < 0 || nl >= to) {
        break;
      }
      start = nl + 1;
    }
    return state;
  }
}
