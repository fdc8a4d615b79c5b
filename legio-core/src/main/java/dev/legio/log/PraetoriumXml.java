package dev.legio.log;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Messages as the XML that is put into prompts, in Legio's format:
 *
 * <pre>{@code
 * <praetorium recent="true" viewer="vorenus">
 * <nuntius id="…" sender="caesar" timestamp="2026-02-15T12:00:00.000000+00:00">text</nuntius>
 * </praetorium>
 * }</pre>
 *
 * Escaping rules, so that no message text can ever become markup:
 *
 * <ul>
 *   <li>{@code & < >} in text become {@code &amp; &lt; &gt;}; attribute values also escape {@code
 *       "} and {@code '}. A carriage return becomes {@code &#13;} (and tab and line feed in
 *       attributes {@code &#9;} and {@code &#10;}) so that parsers do not normalise them away.
 *   <li>Characters that XML 1.0 cannot carry at all, even as references (C0 controls other than
 *       tab, line feed and carriage return; U+FFFE and U+FFFF; unpaired surrogates), are written as
 *       {@code <char>} elements in text ({@link CharElement}: {@code <char code="U+0001"/>}, {@code
 *       <char code="U+0007" count="300"/>}, {@code <char code="U+0001 U+0002"/>}). {@link #parse}
 *       turns them back, so every text round-trips exactly. In attribute values (names, ids,
 *       timestamps, which the log validates) such a character becomes U+FFFD.
 * </ul>
 */
public final class PraetoriumXml {
  public static final String CONTEXT_NOTICE =
      "<context_notice>Session restored from praetorium. Ask Caesar for clarification if context"
          + " is unclear.</context_notice>";

  /**
   * One reader factory, configured once: {@code XMLInputFactory.newFactory()} looks its
   * implementation up on the class path (a scan of every jar) each time it is called, and the
   * offline model parses a block every turn. Creating readers from a configured factory is safe
   * from several threads ({@code MemoryXml} shares one the same way).
   */
  private static final XMLInputFactory INPUT = SafeXmlReaders.factory(true);

  private PraetoriumXml() {}

  /** One message as read back from the XML. */
  public record Entry(UUID id, String sender, String timestamp, String text) {}

  /** A parsed {@code <praetorium>} block. */
  public record Parsed(String viewer, List<Entry> entries) {}

  public static String format(List<Message> messages, String viewer) {
    StringBuilder out = new StringBuilder(128 + messages.size() * 160);
    out.append("<praetorium recent=\"true\" viewer=\"");
    escapeAttribute(viewer, out);
    out.append("\">\n");
    for (Message m : messages) {
      out.append("<nuntius id=\"");
      escapeAttribute(m.id().toString(), out);
      out.append("\" sender=\"");
      escapeAttribute(m.sender(), out);
      out.append("\" timestamp=\"");
      escapeAttribute(Timestamps.format(m.timestamp()), out);
      out.append("\">");
      escapeText(m.text(), out);
      out.append("</nuntius>\n");
    }
    return out.append("</praetorium>").toString();
  }

  /** Appends {@code text} as XML character data. */
  public static void escapeText(String text, StringBuilder out) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '\r' -> out.append("&#13;");
        case '\t', '\n' -> out.append(c);
        default -> {
          if (Character.isHighSurrogate(c)
              && i + 1 < n
              && Character.isLowSurrogate(text.charAt(i + 1))) {
            out.append(c).append(text.charAt(++i));
          } else if (CharElement.carried(c)) {
            out.append(c);
          } else {
            i += CharElement.write(text, i, out) - 1;
          }
        }
      }
    }
  }

  /** Appends {@code value} escaped for a double-quoted attribute. */
  public static void escapeAttribute(String value, StringBuilder out) {
    int n = value.length();
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        case '\t' -> out.append("&#9;");
        case '\n' -> out.append("&#10;");
        case '\r' -> out.append("&#13;");
        default -> {
          if (Character.isHighSurrogate(c)
              && i + 1 < n
              && Character.isLowSurrogate(value.charAt(i + 1))) {
            out.append(c).append(value.charAt(++i));
          } else {
            out.append(CharElement.carried(c) ? c : '\uFFFD');
          }
        }
      }
    }
  }

  /**
   * Reads a {@code <praetorium>} block back, undoing every escape. Throws {@link
   * InvalidMessageException} when the input is not such a block.
   */
  public static Parsed parse(String xml) {
    try {
      XMLStreamReader r = INPUT.createXMLStreamReader(new StringReader(xml));
      r.nextTag();
      r.require(XMLStreamConstants.START_ELEMENT, null, "praetorium");
      String viewer = r.getAttributeValue(null, "viewer");
      List<Entry> entries = new ArrayList<>();
      while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
        r.require(XMLStreamConstants.START_ELEMENT, null, "nuntius");
        UUID id = UUID.fromString(r.getAttributeValue(null, "id"));
        String sender = r.getAttributeValue(null, "sender");
        String timestamp = r.getAttributeValue(null, "timestamp");
        entries.add(new Entry(id, sender, timestamp, readText(r)));
      }
      return new Parsed(viewer, entries);
    } catch (XMLStreamException | IllegalArgumentException e) {
      throw new InvalidMessageException("not a <praetorium> block: " + e.getMessage());
    }
  }

  /** Reads the content of a {@code <nuntius>} element up to its end tag. */
  private static String readText(XMLStreamReader r) throws XMLStreamException {
    StringBuilder text = new StringBuilder();
    while (true) {
      int event = r.next();
      switch (event) {
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
            text.append(r.getText());
        case XMLStreamConstants.START_ELEMENT -> {
          r.require(XMLStreamConstants.START_ELEMENT, null, "char");
          CharElement.read(r, text);
        }
        case XMLStreamConstants.END_ELEMENT -> {
          return text.toString();
        }
        default -> {}
      }
    }
  }
}
