package dev.legio.log;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * How Legio's XML writes text XML 1.0 cannot carry at all, even as a reference (C0 controls other
 * than tab, line feed and carriage return; U+FFFE and U+FFFF; unpaired surrogates), and reads it
 * back:
 *
 * <ul>
 *   <li>one such character is an empty element {@code <char code="U+0007"/>};
 *   <li>a run of at least {@value #RUN} of one such character is one element with a count, {@code
 *       <char code="U+0007" count="300"/>};
 *   <li>other such characters side by side are one element listing them, {@code <char code="U+0007
 *       U+0008 U+0007"/>}.
 * </ul>
 *
 * So the XML of any text is at most about seven times its length (a listed character, {@code
 * "U+0007 "}), never an element per character, and reading it back gives the text exactly.
 */
public final class CharElement {
  /** The shortest run of one character written with a count. */
  static final int RUN = 4;

  private CharElement() {}

  /** True for a UTF-16 unit that XML 1.0 allows on its own (surrogates only in pairs). */
  public static boolean carried(char c) {
    return c >= 0x20 && c <= 0xD7FF
        || c >= 0xE000 && c <= 0xFFFD
        || c == '\t'
        || c == '\n'
        || c == '\r';
  }

  /**
   * Writes the characters XML cannot carry that start at {@code i} in {@code text} (the unit at
   * {@code i} is one) as one element, and returns how many units it took.
   */
  static int write(String text, int i, StringBuilder out) {
    int run = run(text, i);
    out.append("<char code=\"U+").append(hex(text.charAt(i)));
    if (run >= RUN) {
      out.append("\" count=\"").append(run).append("\"/>");
      return run;
    }
    int end = i + 1;
    while (end < text.length() && cannot(text, end) && run(text, end) < RUN) {
      out.append(" U+").append(hex(text.charAt(end)));
      end++;
    }
    out.append("\"/>");
    return end - i;
  }

  /**
   * True when the unit at {@code i} is one XML cannot carry (a paired surrogate can be carried).
   */
  private static boolean cannot(String text, int i) {
    char c = text.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return !(i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1)));
    }
    if (Character.isLowSurrogate(c)) {
      return !(i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
    }
    return !carried(c);
  }

  /** How many times the unit at {@code i} repeats from there, as units XML cannot carry. */
  private static int run(String text, int i) {
    char c = text.charAt(i);
    int end = i + 1;
    while (end < text.length() && text.charAt(end) == c && cannot(text, end)) {
      end++;
    }
    return end - i;
  }

  private static String hex(char c) {
    String hex = Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT);
    return "0".repeat(4 - hex.length()) + hex;
  }

  /** True when the reader is at a {@code <char>} element's start. */
  public static boolean at(XMLStreamReader r) {
    return r.isStartElement() && r.getLocalName().equals("char");
  }

  /**
   * Appends the characters of the {@code <char>} element the reader is at to {@code text}, and
   * moves the reader to its end. Throws when it is not such an element as {@link #write} writes.
   */
  public static void read(XMLStreamReader r, StringBuilder text) throws XMLStreamException {
    String code = r.getAttributeValue(null, "code");
    String count = r.getAttributeValue(null, "count");
    if (code == null || !code.matches("U\\+[0-9A-F]{4}( U\\+[0-9A-F]{4})*")) {
      throw new XMLStreamException("<char> without a code=\"U+XXXX\" attribute");
    }
    int times = 1;
    if (count != null) {
      if (!count.matches("[1-9][0-9]{0,8}") || code.length() != 6) {
        throw new XMLStreamException("<char> with a count that is not a whole number from 1");
      }
      times = Integer.parseInt(count);
    }
    for (int at = 0; at < code.length(); at += 7) {
      text.repeat((char) Integer.parseInt(code, at + 2, at + 6, 16), times);
    }
    if (r.nextTag() != XMLStreamConstants.END_ELEMENT) {
      throw new XMLStreamException("<char> holds something");
    }
  }
}
