package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
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
 *   <li>A line is one JSON object and nothing after it, as Jackson reads JSON (its default
 *       features; strings of any length, its other limits); anything else is malformed ({@link
 *       #read} answers false). So a line that loads always parses when its body is used ({@link
 *       TranscriptEntry#json}): a bad escape ({@code "\q"}), a raw tab in a string, a missing colon
 *       or a stray comma is skipped and counted when loading, never an entry that fails later and
 *       makes its whole session unreadable. A line holding a byte that is not UTF-8 (a Latin-1
 *       {@code é}, a disk error) is malformed too.
 *   <li>The fast path ({@link #fastScan}) walks the line once, checking the grammar outside strings
 *       and skipping strings by their closing quote (checking their escapes on the way); a line it
 *       cannot decide (an escape inside a field it keeps or in a top-level key, nesting deeper than
 *       62 levels, a name or number past Jackson's limits) is read by Jackson's streaming parser
 *       instead, which decides exactly. Both agree with Jackson's tree on every line ({@code
 *       TranscriptScannerJacksonAgreementTest}).
 * </ul>
 */
final class TranscriptLine {
  /**
   * Jackson as transcripts are read, by the scanner's slow path and by {@link TranscriptEntry#json}
   * alike: a string has no length limit (a Claude Code tool result can pass Jackson's default of 20
   * million characters; a line is bounded by its file), the other limits are Jackson's defaults.
   */
  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
          .build();

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
  private static final byte COLON = 8;
  private static final byte SCALAR = 9; // what a number, true, false or null starts with

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
    c[':'] = COLON;
    for (char ch : "-0123456789tfn".toCharArray()) {
      c[ch] = SCALAR;
    }
    return c;
  }

  static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  /** What may come next outside strings. */
  private static final int KEY_OR_CLOSE = 0; // after '{'

  private static final int KEY = 1; // after ',' in an object
  private static final int COLON_NEXT = 2; // after a key
  private static final int VALUE = 3; // after ':', or after ',' in an array
  private static final int VALUE_OR_CLOSE = 4; // after '['
  private static final int COMMA_OR_CLOSE = 5; // after a value

  /**
   * Jackson's default limit on a name's length (in characters). A longer key (in bytes, which are
   * never fewer than its characters) is left to Jackson, which applies it.
   */
  private static final int MAX_NAME_BYTES = StreamReadConstraints.DEFAULT_MAX_NAME_LEN;

  /**
   * Jackson's default limit on a number's digits. A longer number (in bytes, never fewer than its
   * digits) is left to Jackson, which applies it.
   */
  private static final int MAX_NUMBER_BYTES = StreamReadConstraints.DEFAULT_MAX_NUM_LEN;

  /** {@link #afterScalar}'s answer for a number too long to decide here. */
  private static final int TOO_LONG = -2;

  /**
   * Walks one line {@code [s, e)} (trimmed): {@link #OK} with the top-level fields filled in when
   * it is one JSON object and nothing after it, {@link #MALFORMED} when it is not, {@link
   * #UNDECIDED} when Jackson must decide. The whole grammar is checked, as Jackson's parser checks
   * it with its default features: tokens in their places, escapes, no raw control character in a
   * string, numbers without leading zeros, {@code true}, {@code false} and {@code null} spelled
   * out. Strings are skipped to their closing quote, eight bytes at a time where nothing needs a
   * look. A field named twice counts with its last value, as in Jackson's tree.
   */
  static int fastScan(byte[] buf, int s, int e, Fields f) {
    if (buf[s] != '{') {
      return MALFORMED;
    }
    long stack = 1; // bit per level: 1 object, 0 array; the lowest bit is the current level
    int depth = 1;
    int expect = KEY_OR_CLOSE;
    int kept = -1; // the kept top-level field whose value comes next, or -1
    int i = s + 1;
    while (i < e) {
      byte b = buf[i];
      switch (CLASS[b & 0xff]) {
        case SPACE -> i++;
        case QUOTE -> {
          int close = endOfString(buf, i + 1, e);
          if (close < 0) {
            return MALFORMED;
          }
          if (expect == KEY || expect == KEY_OR_CLOSE) {
            if (close - i - 1 > MAX_NAME_BYTES) {
              return UNDECIDED;
            }
            if (depth == 1) {
              if (indexOf(buf, (byte) '\\', i + 1, close) >= 0) {
                return UNDECIDED; // an escaped key may spell a field we keep: let Jackson decode it
              }
              kept = field(buf, i + 1, close);
            }
            expect = COLON_NEXT;
          } else if (expect == VALUE || expect == VALUE_OR_CLOSE) {
            if (kept >= 0) {
              if (indexOf(buf, (byte) '\\', i + 1, close) >= 0) {
                return UNDECIDED; // an escape in a field we keep: let Jackson decode it
              }
              set(f, kept, new String(buf, i + 1, close - i - 1, StandardCharsets.UTF_8));
              kept = -1;
            }
            expect = COMMA_OR_CLOSE;
          } else {
            return MALFORMED;
          }
          i = close + 1;
        }
        case COLON -> {
          if (expect != COLON_NEXT) {
            return MALFORMED;
          }
          expect = VALUE;
          i++;
        }
        case COMMA -> {
          if (expect != COMMA_OR_CLOSE) {
            return MALFORMED;
          }
          expect = (stack & 1) == 1 ? KEY : VALUE;
          i++;
        }
        case OPEN_OBJECT, OPEN_ARRAY -> {
          if (expect != VALUE && expect != VALUE_OR_CLOSE) {
            return MALFORMED;
          }
          if (kept >= 0) {
            set(f, kept, null); // a kept field whose value is not a string: none
            kept = -1;
          }
          if (depth == 63) {
            return UNDECIDED;
          }
          boolean object = b == '{';
          stack = (stack << 1) | (object ? 1 : 0);
          depth++;
          expect = object ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
          i++;
        }
        case CLOSE_OBJECT, CLOSE_ARRAY -> {
          boolean object = b == '}';
          if ((stack & 1) != (object ? 1 : 0)) {
            return MALFORMED; // { closed by ] or the other way round
          }
          if (expect != COMMA_OR_CLOSE && expect != (object ? KEY_OR_CLOSE : VALUE_OR_CLOSE)) {
            return MALFORMED; // closed after a key, a colon or a comma
          }
          stack >>>= 1;
          depth--;
          i++;
          if (depth == 0) {
            return i == e ? OK : MALFORMED; // something after the object on the same line
          }
          expect = COMMA_OR_CLOSE;
        }
        case SCALAR -> {
          if (expect != VALUE && expect != VALUE_OR_CLOSE) {
            return MALFORMED;
          }
          if (kept >= 0) {
            set(f, kept, null);
            kept = -1;
          }
          int after = afterScalar(buf, i, e);
          if (after < 0) {
            return after == TOO_LONG ? UNDECIDED : MALFORMED;
          }
          expect = COMMA_OR_CLOSE;
          i = after;
        }
        default -> {
          return MALFORMED;
        }
      }
    }
    return MALFORMED; // the object is not closed on this line
  }

  private static final byte[] TRUE = bytes("true");
  private static final byte[] FALSE = bytes("false");
  private static final byte[] NULL = bytes("null");

  /**
   * The index after the number or literal starting at {@code i}, -1 when it is not one, {@link
   * #TOO_LONG} for a number past {@link #MAX_NUMBER_BYTES}. What follows it is the caller's to
   * check (only white space, a comma or a closing bracket may).
   */
  private static int afterScalar(byte[] buf, int i, int e) {
    byte[] literal =
        switch (buf[i]) {
          case 't' -> TRUE;
          case 'f' -> FALSE;
          case 'n' -> NULL;
          default -> null;
        };
    if (literal != null) {
      int end = i + literal.length;
      return end <= e && Arrays.equals(buf, i, end, literal, 0, literal.length) ? end : -1;
    }
    // -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
    int start = i;
    if (buf[i] == '-') {
      i++;
    }
    if (i >= e || !isDigit(buf[i])) {
      return -1;
    }
    if (buf[i] == '0') {
      i++;
      if (i < e && isDigit(buf[i])) {
        return -1; // a leading zero
      }
    } else {
      i = afterDigits(buf, i, e);
    }
    if (i < e && buf[i] == '.') {
      int digits = ++i;
      i = afterDigits(buf, i, e);
      if (i == digits) {
        return -1;
      }
    }
    if (i < e && (buf[i] == 'e' || buf[i] == 'E')) {
      i++;
      if (i < e && (buf[i] == '+' || buf[i] == '-')) {
        i++;
      }
      int digits = i;
      i = afterDigits(buf, i, e);
      if (i == digits) {
        return -1;
      }
    }
    return i - start > MAX_NUMBER_BYTES ? TOO_LONG : i;
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  private static int afterDigits(byte[] buf, int i, int e) {
    while (i < e && isDigit(buf[i])) {
      i++;
    }
    return i;
  }

  /**
   * The index of the quote closing a string whose content starts at {@code i}, or -1 when it is not
   * closed on the line, holds a raw control character (below U+0020), an escape JSON does not have
   * (only {@code \"}, {@code \\}, {@code \/}, {@code \b}, {@code \f}, {@code \n}, {@code \r},
   * {@code \t} and {@code \}{@code u} with four hex digits are), or bytes that are not UTF-8 (see
   * {@link #afterUtf8}).
   */
  private static int endOfString(byte[] buf, int i, int e) {
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

  /** Which of {@link #FIELDS} the name is, or -1. */
  private static int field(String name) {
    return switch (name) {
      case "type" -> 0;
      case "uuid" -> 1;
      case "parentUuid" -> 2;
      case "deletedUuid" -> 3;
      case "agentName" -> 4;
      default -> -1;
    };
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
        int field = field(p.currentName());
        t = p.nextToken();
        String text = t == JsonToken.VALUE_STRING ? p.getText() : null;
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          p.skipChildren();
        }
        if (field >= 0) {
          set(f, field, text); // named twice: the last value counts, as in Jackson's tree
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
