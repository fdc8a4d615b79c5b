package dev.legio.backend.http;

import dev.legio.log.SafeXmlReaders;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The beginning of an XML tool result that still is well-formed XML: {@link #of} keeps the text up
 * to a safe boundary and closes the elements open there.
 *
 * <ul>
 *   <li>A safe boundary is between two pieces of markup or characters of text: never inside a tag
 *       (its name, an attribute, a value), a reference ({@code &amp;}, {@code &#13;}), a comment, a
 *       processing instruction, a CDATA section or a surrogate pair.
 *   <li>The kept text and the end tags closing it are together at most the length asked for; the
 *       boundary is the last one for which they fit.
 *   <li>A result is XML ({@link #isXml}) when it begins with {@code <} (after white space) and
 *       parses as XML content: one element, as Legio's tools mostly return, or several side by side
 *       ({@code dispatch}'s replies). A document type declaration makes it no XML here.
 * </ul>
 */
final class XmlPrefix {
  /** One reader factory, configured once; readers made from it are safe on several threads. */
  private static final XMLInputFactory INPUT = SafeXmlReaders.factory(false);

  /**
   * A cut: {@code kept} is the beginning of the text, {@code closing} the end tags of the elements
   * open at its end, innermost first.
   */
  record Cut(String kept, String closing) {
    /** The well-formed text: what was kept, closed. */
    String text() {
      return kept + closing;
    }
  }

  private XmlPrefix() {}

  /** True when {@code text} is XML that {@link #of} may cut (see the class comment). */
  static boolean isXml(String text) {
    if (!text.strip().startsWith("<")) {
      return false;
    }
    String xml =
        text.startsWith("<?xml") ? text : "<xml-prefix-check>" + text + "</xml-prefix-check>";
    try {
      XMLStreamReader r = INPUT.createXMLStreamReader(new StringReader(xml));
      try {
        while (r.hasNext()) {
          int event = r.next();
          if (event == XMLStreamConstants.DTD || event == XMLStreamConstants.ENTITY_REFERENCE) {
            return false;
          }
        }
        return true;
      } finally {
        r.close();
      }
    } catch (XMLStreamException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The longest well-formed beginning of {@code xml} (for which {@link #isXml} is true) that fits
   * in {@code max} characters with its end tags.
   */
  static Cut of(String xml, int max) {
    Walk walk = new Walk(xml);
    int best = 0;
    while (walk.at <= max) {
      if (walk.at + walk.closing <= max) {
        best = walk.at;
      }
      if (walk.at == xml.length()) {
        break;
      }
      walk.step();
    }
    Walk kept = new Walk(xml);
    while (kept.at < best) {
      kept.step();
    }
    StringBuilder closing = new StringBuilder(kept.closing);
    for (String name : kept.open) {
      closing.append("</").append(name).append('>');
    }
    return new Cut(xml.substring(0, best), closing.toString());
  }

  /** A walk over well-formed XML from one safe boundary to the next. */
  private static final class Walk {
    private final String xml;

    /** The open elements' names, innermost first. */
    private final Deque<String> open = new ArrayDeque<>();

    /** Where the walk is: always a safe boundary. */
    private int at;

    /** The length of the end tags that would close {@link #open}. */
    private int closing;

    Walk(String xml) {
      this.xml = xml;
    }

    /** Moves past the markup or character at {@link #at}. */
    void step() {
      char c = xml.charAt(at);
      if (c == '&') {
        at = xml.indexOf(';', at) + 1;
      } else if (c != '<') {
        boolean pair =
            Character.isHighSurrogate(c)
                && at + 1 < xml.length()
                && Character.isLowSurrogate(xml.charAt(at + 1));
        at += pair ? 2 : 1;
      } else if (xml.startsWith("<!--", at)) {
        at = xml.indexOf("-->", at + 4) + 3;
      } else if (xml.startsWith("<![CDATA[", at)) {
        at = xml.indexOf("]]>", at + 9) + 3;
      } else if (xml.startsWith("<?", at)) {
        at = xml.indexOf("?>", at + 2) + 2;
      } else if (xml.startsWith("</", at)) {
        closing -= open.pop().length() + 3;
        at = xml.indexOf('>', at) + 1;
      } else {
        startTag();
      }
    }

    /** Moves past a start tag or an empty-element tag, opening the element of a start tag. */
    private void startTag() {
      int nameEnd = at + 1;
      while (!endsName(xml.charAt(nameEnd))) {
        nameEnd++;
      }
      char quote = 0;
      int i = nameEnd;
      for (char c = xml.charAt(i); quote != 0 || c != '>'; c = xml.charAt(++i)) {
        if (quote == 0 && (c == '"' || c == '\'')) {
          quote = c;
        } else if (c == quote) {
          quote = 0;
        }
      }
      if (xml.charAt(i - 1) != '/') {
        String name = xml.substring(at + 1, nameEnd);
        open.push(name);
        closing += name.length() + 3;
      }
      at = i + 1;
    }

    private static boolean endsName(char c) {
      return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
  }
}
