package dev.legio.transcript;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The byte-level walks over a transcript line, eight bytes at a time where no byte needs a look:
 * where a JSON string ends (and whether what it holds is allowed: escapes JSON has, no raw control
 * character, UTF-8 as Jackson decodes it), whether a run of bytes is UTF-8, where the next newline
 * is. {@link TranscriptLine} walks a line's grammar with them; {@link TranscriptScanner} cuts lines
 * with them.
 *
 * <p>The eight-byte steps rest on one rule: a mask flags each byte of a word that needs a look, and
 * only its lowest flag is exact (a flagged byte may flag the bytes above it falsely through a
 * borrow), so a walk stops at the lowest flag and looks at that byte alone.
 */
final class LineBytes {
  private LineBytes() {}

  static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  /** Whether {@code [s, e)} is UTF-8 as {@link #afterUtf8} decides. */
  static boolean isUtf8(byte[] buf, int s, int e) {
    int i = s;
    while (i < e) {
      // Eight ASCII bytes at a time up to the next byte with its high bit set.
      while (i + 8 <= e && ((long) LONGS.get(buf, i) & HIGHS) == 0) {
        i += 8;
      }
      if (i >= e) {
        break;
      }
      if (buf[i] >= 0) {
        i++;
      } else {
        i = afterUtf8(buf, i, e);
        if (i < 0) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The index of the quote closing a string whose content starts at {@code i}, or -1 when it is not
   * closed on the line, holds a raw control character (below U+0020), an escape JSON does not have
   * (only {@code \"}, {@code \\}, {@code \/}, {@code \b}, {@code \f}, {@code \n}, {@code \r},
   * {@code \t} and {@code \}{@code u} with four hex digits are), or bytes that are not UTF-8 (see
   * {@link #afterUtf8}).
   */
  static int endOfString(byte[] buf, int i, int e) {
    while (i < e) {
      // Eight bytes at a time up to the next quote, backslash, control or non-ASCII byte.
      while (i + 8 <= e) {
        long w = (long) LONGS.get(buf, i);
        long hit = stringStops(w);
        if (hit != 0) {
          i += Long.numberOfTrailingZeros(hit) >>> 3;
          break;
        }
        i += 8;
      }
      if (i >= e) {
        return -1;
      }
      byte c = buf[i];
      if (c == '"') {
        return i;
      }
      if (c == '\\') {
        i = afterEscape(buf, i, e);
        if (i < 0) {
          return -1;
        }
      } else if (c < 0) {
        i = afterUtf8(buf, i, e);
        if (i < 0) {
          return -1;
        }
      } else if (c < ' ') {
        return -1; // a control character must be escaped
      } else {
        i++;
      }
    }
    return -1;
  }

  /** The index after the escape whose backslash is at {@code i}, or -1 when JSON has no such. */
  private static int afterEscape(byte[] buf, int i, int e) {
    if (i + 1 >= e) {
      return -1;
    }
    switch (buf[i + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        return i + 2;
      }
      case 'u' -> {
        if (i + 6 > e) {
          return -1;
        }
        for (int k = i + 2; k < i + 6; k++) {
          if (Character.digit(buf[k], 16) < 0) {
            return -1;
          }
        }
        return i + 6;
      }
      default -> {
        return -1;
      }
    }
  }

  /**
   * The index after the UTF-8 sequence starting with the non-ASCII byte at {@code i}, or -1 when
   * the bytes there are not UTF-8 as Jackson decodes it: a lead byte {@code C0}-{@code DF}, {@code
   * E0}-{@code EF} or {@code F0}-{@code F7} followed by one, two or three bytes {@code 80}-{@code
   * BF} (a Latin-1 {@code é} (E9) before ASCII, a lone {@code FF} or {@code 80}, a sequence cut
   * short are not). Jackson does not refuse overlong forms or encoded surrogates, so neither does
   * this: the scanner and {@link TranscriptEntry#json()} agree on every line.
   */
  static int afterUtf8(byte[] buf, int i, int e) {
    int lead = buf[i] & 0xff;
    int more;
    if (lead >= 0xF8 || lead < 0xC0) {
      return -1;
    } else if (lead >= 0xF0) {
      more = 3;
    } else if (lead >= 0xE0) {
      more = 2;
    } else {
      more = 1;
    }
    if (i + more >= e) {
      return -1;
    }
    for (int k = 1; k <= more; k++) {
      if ((buf[i + k] & 0xC0) != 0x80) {
        return -1;
      }
    }
    return i + more + 1;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long QUOTES = '"' * ONES;
  private static final long BACKSLASHES = '\\' * ONES;
  private static final long NEWLINES = '\n' * ONES;
  private static final long SPACES = ' ' * ONES;

  /**
   * The high bit of each zero byte of {@code x} set (bytes above the lowest zero byte may be
   * flagged falsely, so only the lowest flag is exact: the one used).
   */
  private static long zeroBytes(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  /**
   * The high bit of each byte of {@code w} that ends a run of plain string bytes set: a quote, a
   * backslash, a control character (below {@code 0x20}) or a non-ASCII byte. Only the lowest flag
   * is exact (a byte above a flagged one may be flagged falsely), and it is the one used. Why it
   * holds: for an ASCII byte {@code c}, {@code (c ^ '"') - 1} has its high bit set only when {@code
   * c} is a quote, {@code (c ^ '\\') - 1} only for a backslash, {@code c - 0x20} only below {@code
   * 0x20}, and only those subtractions borrow from the byte above; a non-ASCII byte has its own
   * high bit set and borrows from no one.
   */
  static long stringStops(long w) {
    return (((w ^ QUOTES) - ONES) | ((w ^ BACKSLASHES) - ONES) | (w - SPACES) | w) & HIGHS;
  }

  static int indexOf(byte[] buf, byte b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** The index of the next newline in {@code [from, to)}, or -1: eight bytes at a time. */
  static int indexOfNewline(byte[] buf, int from, int to) {
    int i = from;
    while (i + 8 <= to) {
      long hit = zeroBytes((long) LONGS.get(buf, i) ^ NEWLINES);
      if (hit != 0) {
        return i + (Long.numberOfTrailingZeros(hit) >>> 3);
      }
      i += 8;
    }
    return indexOf(buf, (byte) '\n', i, to);
  }
}
