package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
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
      if (verdict == OK && !LineBytes.isUtf8(buf, s, e)) {
        // Jackson's parser reads a name from its table of names it met before by its bytes padded
        // with FF, so a warm parser takes {"parentUu\xFFid": ...} for "parentUuid": checked here.
        verdict = MALFORMED;
      }
    }
    return verdict != MALFORMED;
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
          int close = LineBytes.endOfString(buf, i + 1, e);
          if (close < 0) {
            return MALFORMED;
          }
          if (expect == KEY || expect == KEY_OR_CLOSE) {
            if (close - i - 1 > MAX_NAME_BYTES) {
              return UNDECIDED;
            }
            if (depth == 1) {
              if (LineBytes.indexOf(buf, (byte) '\\', i + 1, close) >= 0) {
                return UNDECIDED; // an escaped key may spell a field we keep: let Jackson decode it
              }
              kept = field(buf, i + 1, close);
            }
            expect = COLON_NEXT;
          } else if (expect == VALUE || expect == VALUE_OR_CLOSE) {
            if (kept >= 0) {
              if (LineBytes.indexOf(buf, (byte) '\\', i + 1, close) >= 0) {
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
}
