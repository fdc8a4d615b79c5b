package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads one line of a transcript for its top-level {@code type}, {@code uuid}, {@code parentUuid},
 * {@code deletedUuid} and {@code agentName} only, without building the rest of it.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A line is one JSON object with balanced brackets and nothing after it, whose strings are
 *       UTF-8; anything else is malformed ({@link #read} answers false). A line holding a byte that
 *       is not UTF-8 (a Latin-1 {@code é}, a disk error) is thus skipped and counted like any other
 *       malformed line, never read as an entry whose body fails later.
 *   <li>The fast path ({@link #fastScan}) walks the line once, skipping strings by their closing
 *       quote; a line it cannot decide (an escape inside a field it keeps or in a top-level key,
 *       nesting deeper than 62 levels) is read by Jackson's streaming parser instead, which decides
 *       exactly. Both agree on every line ({@code TranscriptScannerJacksonAgreementTest}).
 * </ul>
 */
final class TranscriptLine {
  private static final JsonFactory FACTORY = new JsonFactory();

  private TranscriptLine() {}

  /**
   * Reads the trimmed line {@code [s, e)} into {@code f}; false when it is malformed (then {@code
   * f}'s fields mean nothing).
   */
  static boolean read(byte[] buf, int s, int e, Fields f) {
    f.clear();
    int verdict = fastScan(buf, s, e, f);
    if (verdict == UNDECIDED) {
      verdict = jacksonScan(buf, s, e, f);
      if (verdict == OK && !isUtf8(buf, s, e)) {
        // Jackson's parser reads a name from its table of names it met before by its bytes padded
        // with FF, so a warm parser takes {"parentUu\xFFid": ...} for "parentUuid": checked here.
        verdict = MALFORMED;
      }
    }
    return verdict != MALFORMED;
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

  /** The top-level fields a line is read for up front: null where the line has none. */
  static final class Fields {
    String type;
    String uuid;
    String parentUuid;
    String deletedUuid;
    String agentName;
    int start;
    int end;

    void clear() {
      type = uuid = parentUuid = deletedUuid = agentName = null;
    }
  }

  private static final int OK = 0;
  private static final int MALFORMED = 1;
  private static final int UNDECIDED = 2;

  /** Byte classes outside strings. */
  private static final byte OTHER = 0;

  private static final byte SPACE = 1;
  private static final byte OPEN_OBJECT = 2;
  private static final byte OPEN_ARRAY = 3;
  private static final byte CLOSE_OBJECT = 4;
  private static final byte CLOSE_ARRAY = 5;
  private static final byte QUOTE = 6;
  private static final byte COMMA = 7;
  private static final byte SCALAR =
      8; // digits, signs, exponent and the letters of true/false/null

  private static final byte[] CLASS = classes();

  private static byte[] classes() {
    byte[] c = new byte[256];
    for (char ch : " \t\r".toCharArray()) {
      c[ch] = SPACE;
    }
    c['{'] = OPEN_OBJECT;
    c['['] = OPEN_ARRAY;
    c['}'] = CLOSE_OBJECT;
    c[']'] = CLOSE_ARRAY;
    c['"'] = QUOTE;
    c[','] = COMMA;
    c[':'] = SPACE; // checked where it matters: after a top-level key
    for (char ch : "0123456789-+.eEtruefalsn".toCharArray()) {
      c[ch] = SCALAR;
    }
    return c;
  }

  static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  /**
   * Walks one line {@code [s, e)} (trimmed): {@link #OK} with the top-level fields filled in when
   * it is one object with balanced brackets and nothing after it, {@link #MALFORMED} when it is
   * not, {@link #UNDECIDED} when Jackson must decide. Strings are skipped by looking for their
   * closing quote; bytes outside strings must be structural, blank, or part of a number or literal.
   * The grammar between those is not checked (a line like {@code {"a" 1}} passes); {@link
   * TranscriptEntry#json()} parses the whole line when it is used.
   */
  static int fastScan(byte[] buf, int s, int e, Fields f) {
    if (buf[s] != '{') {
      return MALFORMED;
    }
    long stack = 1; // bit per level: 1 object, 0 array; the lowest bit is the current level
    int depth = 1;
    boolean keyNext = true; // at depth 1: the next string is a key
    int i = s + 1;
    while (i < e) {
      byte b = buf[i];
      switch (CLASS[b & 0xff]) {
        case QUOTE -> {
          int close = endOfString(buf, i + 1, e);
          if (close < 0) {
            return MALFORMED;
          }
          if (depth == 1 && keyNext) {
            if (indexOf(buf, (byte) '\\', i + 1, close) >= 0) {
              return UNDECIDED; // an escaped key may spell a field we keep: let Jackson decode it
            }
            int field = field(buf, i + 1, close);
            keyNext = false;
            if (field >= 0) {
              int v = close + 1;
              while (v < e && (isSpace(buf[v]) || buf[v] == ':')) {
                v++;
              }
              if (v < e && buf[v] == '"') {
                int vClose = endOfString(buf, v + 1, e);
                if (vClose < 0) {
                  return MALFORMED;
                }
                if (indexOf(buf, (byte) '\\', v + 1, vClose) >= 0) {
                  return UNDECIDED; // an escape in a field we keep: let Jackson decode it
                }
                set(f, field, new String(buf, v + 1, vClose - v - 1, StandardCharsets.UTF_8));
                close = vClose;
              }
            }
          }
          i = close + 1;
        }
        case OPEN_OBJECT, OPEN_ARRAY -> {
          if (depth == 63) {
            return UNDECIDED;
          }
          stack = (stack << 1) | (CLASS[b & 0xff] == OPEN_OBJECT ? 1 : 0);
          depth++;
          i++;
        }
        case CLOSE_OBJECT, CLOSE_ARRAY -> {
          if ((stack & 1) != (CLASS[b & 0xff] == CLOSE_OBJECT ? 1 : 0)) {
            return MALFORMED; // { closed by ] or the other way round
          }
          stack >>>= 1;
          depth--;
          i++;
          if (depth == 0) {
            return i == e ? OK : MALFORMED; // something after the object on the same line
          }
        }
        case COMMA -> {
          if (depth == 1) {
            keyNext = true;
          }
          i++;
        }
        case SPACE, SCALAR -> i++;
        default -> {
          return MALFORMED;
        }
      }
    }
    return MALFORMED; // the object is not closed on this line
  }

  /**
   * The index of the quote closing a string whose content starts at {@code i}, or -1 when it is not
   * closed on the line or holds bytes that are not UTF-8 (see {@link #afterUtf8}).
   */
  private static int endOfString(byte[] buf, int i, int e) {
    while (i < e) {
      // Eight bytes at a time up to the next quote, backslash or non-ASCII byte.
      while (i + 8 <= e) {
        long w = (long) LONGS.get(buf, i);
        long hit = zeroBytes(w ^ QUOTES) | zeroBytes(w ^ BACKSLASHES) | (w & HIGHS);
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
        if (i + 1 < e && buf[i + 1] < 0) {
          return -1; // a non-ASCII byte is never an escape
        }
        i += 2;
      } else if (c < 0) {
        i = afterUtf8(buf, i, e);
        if (i < 0) {
          return -1;
        }
      } else {
        i++;
      }
    }
    return -1;
  }

  /**
   * The index after the UTF-8 sequence starting with the non-ASCII byte at {@code i}, or -1 when
   * the bytes there are not UTF-8 as Jackson decodes it: a lead byte {@code C0}-{@code DF}, {@code
   * E0}-{@code EF} or {@code F0}-{@code F7} followed by one, two or three bytes {@code 80}-{@code
   * BF} (a Latin-1 {@code é} (E9) before ASCII, a lone {@code FF} or {@code 80}, a sequence cut
   * short are not). Jackson does not refuse overlong forms or encoded surrogates, so neither does
   * this: the scanner and {@link TranscriptEntry#json()} agree on every line.
   */
  private static int afterUtf8(byte[] buf, int i, int e) {
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

  /**
   * The high bit of each zero byte of {@code x} set (bytes above the lowest zero byte may be
   * flagged falsely, so only the lowest flag is exact: the one used).
   */
  private static long zeroBytes(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  private static final byte[][] FIELDS = {
    bytes("type"), bytes("uuid"), bytes("parentUuid"), bytes("deletedUuid"), bytes("agentName")
  };

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Which of {@link #FIELDS} the key {@code [from, to)} is, or -1. */
  private static int field(byte[] buf, int from, int to) {
    int len = to - from;
    for (int k = 0; k < FIELDS.length; k++) {
      byte[] name = FIELDS[k];
      if (name.length == len && Arrays.equals(buf, from, to, name, 0, len)) {
        return k;
      }
    }
    return -1;
  }

  private static void set(Fields f, int field, String value) {
    switch (field) {
      case 0 -> f.type = value;
      case 1 -> f.uuid = value;
      case 2 -> f.parentUuid = value;
      case 3 -> f.deletedUuid = value;
      default -> f.agentName = value;
    }
  }

  /** One line read with Jackson's streaming parser: the slow, exact path. */
  private static int jacksonScan(byte[] buf, int s, int e, Fields f) {
    f.clear();
    try (JsonParser p = FACTORY.createParser(buf, s, e - s)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return MALFORMED;
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        t = p.nextToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          p.skipChildren();
        } else if (t == JsonToken.VALUE_STRING) {
          switch (name) {
            case "type" -> f.type = p.getText();
            case "uuid" -> f.uuid = p.getText();
            case "parentUuid" -> f.parentUuid = p.getText();
            case "deletedUuid" -> f.deletedUuid = p.getText();
            case "agentName" -> f.agentName = p.getText();
            default -> {
              // not needed up front
            }
          }
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        return MALFORMED;
      }
      return OK;
    } catch (IOException ex) {
      return MALFORMED;
    }
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
