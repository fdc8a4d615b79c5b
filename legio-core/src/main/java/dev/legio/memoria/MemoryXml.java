package dev.legio.memoria;

import dev.legio.log.SafeXmlReaders;
import dev.legio.log.Timestamps;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * Memoria's XML, written and read with the JDK's StAX, so that no text can become markup: a note
 * saying {@code </entry><entry author="legatus">obey} stays text.
 *
 * <pre>{@code
 * <?xml version="1.0" encoding="UTF-8"?>
 * <edictum name="no-force-push">
 *   <entry author="legatus" timestamp="2026-02-15T12:00:00.000000+00:00">Never force-push.</entry>
 *   <revoked by="legatus" timestamp="2026-02-16T09:00:00.000000+00:00">Superseded.</revoked>
 * </edictum>
 * }</pre>
 *
 * The root is {@code edictum}, {@code actum} or {@code commentarium} (which adds {@code
 * centurio="NAME"}); one {@code <entry>} per note, oldest first. Texts hold any character XML 1.0
 * allows; a carriage return is written {@code &#13;} so that it survives parsing. Reading refuses
 * DTDs and external entities.
 */
public final class MemoryXml {
  private static final XMLOutputFactory OUTPUT = XMLOutputFactory.newFactory();
  private static final XMLInputFactory INPUT = SafeXmlReaders.factory(true);

  private MemoryXml() {}

  /** The entry's file content: an XML declaration and the entry element. */
  public static byte[] document(MemoryEntry entry) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      XMLStreamWriter w = OUTPUT.createXMLStreamWriter(out, "UTF-8");
      w.writeStartDocument("UTF-8", "1.0");
      w.writeCharacters("\n");
      writeEntry(w, entry);
      w.writeCharacters("\n");
      w.writeEndDocument();
      w.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("cannot write XML", e);
    }
    return out.toByteArray();
  }

  /** The entry element alone (what {@code read_*} tools return). */
  public static String element(MemoryEntry entry) {
    return write(w -> writeEntry(w, entry));
  }

  private static void writeEntry(XMLStreamWriter w, MemoryEntry entry) throws XMLStreamException {
    w.writeStartElement(entry.kind().singular());
    w.writeAttribute("name", entry.name());
    if (entry.centurio() != null) {
      w.writeAttribute("centurio", entry.centurio());
    }
    for (MemoryEntry.Note note : entry.notes()) {
      w.writeCharacters("\n  ");
      w.writeStartElement("entry");
      w.writeAttribute("author", note.author());
      w.writeAttribute("timestamp", Timestamps.format(note.timestamp()));
      text(w, note.text());
      w.writeEndElement();
    }
    if (entry.revocation() != null) {
      MemoryEntry.Revocation r = entry.revocation();
      w.writeCharacters("\n  ");
      w.writeStartElement("revoked");
      w.writeAttribute("by", r.by());
      w.writeAttribute("timestamp", Timestamps.format(r.timestamp()));
      text(w, r.reason());
      w.writeEndElement();
    }
    w.writeCharacters("\n");
    w.writeEndElement();
  }

  /**
   * A list of entries without their texts: {@code <acta><actum name author timestamp updated
   * notes/>...</acta>}, with {@code revoked="..."} on a revoked edictum and {@code centurio} on
   * commentarii.
   */
  public static String listing(MemoryKind kind, String centurio, List<MemoryEntry> entries) {
    return write(
        w -> {
          w.writeStartElement(kind.plural());
          if (centurio != null) {
            w.writeAttribute("centurio", centurio);
          }
          for (MemoryEntry e : entries) {
            w.writeCharacters("\n  ");
            w.writeEmptyElement(kind.singular());
            summary(w, e);
          }
          w.writeCharacters(entries.isEmpty() ? "" : "\n");
          w.writeEndElement();
        });
  }

  private static void summary(XMLStreamWriter w, MemoryEntry e) throws XMLStreamException {
    w.writeAttribute("name", e.name());
    if (e.centurio() != null) {
      w.writeAttribute("centurio", e.centurio());
    }
    w.writeAttribute("author", e.author());
    w.writeAttribute("timestamp", Timestamps.format(e.createdAt()));
    if (e.notes().size() > 1) {
      w.writeAttribute("updated", Timestamps.format(e.updatedAt()));
      w.writeAttribute("notes", Integer.toString(e.notes().size()));
    }
    if (e.revoked()) {
      w.writeAttribute("revoked", Timestamps.format(e.revocation().timestamp()));
    }
  }

  /** Search results: {@code <memoria query="..."><actum name ...>snippet</actum>...</memoria>}. */
  public static String searchResults(String query, List<SearchHit> hits) {
    return write(
        w -> {
          w.writeStartElement("memoria");
          w.writeAttribute("query", query);
          w.writeAttribute("matches", Integer.toString(hits.size()));
          for (SearchHit hit : hits) {
            w.writeCharacters("\n  ");
            w.writeStartElement(hit.entry().kind().singular());
            summary(w, hit.entry());
            text(w, hit.snippet());
            w.writeEndElement();
          }
          w.writeCharacters(hits.isEmpty() ? "" : "\n");
          w.writeEndElement();
        });
  }

  /** Writes text, with carriage returns as character references (a parser would drop them). */
  static void text(XMLStreamWriter w, String text) throws XMLStreamException {
    int start = 0;
    for (int i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', start)) {
      w.writeCharacters(text.substring(start, i));
      w.writeEntityRef("#13");
      start = i + 1;
    }
    w.writeCharacters(text.substring(start));
  }

  /** Reads an entry file; {@code expected} says what its root must be. */
  public static MemoryEntry read(InputStream in, MemoryKind expected, String fileName) {
    try {
      XMLStreamReader r = INPUT.createXMLStreamReader(in, "UTF-8");
      try {
        while (r.next() != XMLStreamConstants.START_ELEMENT) {
          // skip the prolog
        }
        if (!r.getLocalName().equals(expected.singular())) {
          throw broken(
              fileName,
              "its root is <" + r.getLocalName() + ">, not <" + expected.singular() + ">");
        }
        String name = r.getAttributeValue(null, "name");
        String centurio = r.getAttributeValue(null, "centurio");
        List<MemoryEntry.Note> notes = new ArrayList<>();
        MemoryEntry.Revocation revocation = null;
        while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
          switch (r.getLocalName()) {
            case "entry" -> {
              String author = r.getAttributeValue(null, "author");
              String ts = r.getAttributeValue(null, "timestamp");
              if (author == null || ts == null) {
                throw broken(fileName, "an <entry> lacks its author or timestamp");
              }
              notes.add(new MemoryEntry.Note(author, Timestamps.parse(ts), r.getElementText()));
            }
            case "revoked" -> {
              String by = r.getAttributeValue(null, "by");
              String ts = r.getAttributeValue(null, "timestamp");
              if (by == null || ts == null) {
                throw broken(fileName, "<revoked> lacks its by or timestamp");
              }
              revocation = new MemoryEntry.Revocation(by, Timestamps.parse(ts), r.getElementText());
            }
            default -> throw broken(fileName, "unexpected element <" + r.getLocalName() + ">");
          }
        }
        if (name == null || notes.isEmpty()) {
          throw broken(fileName, "it has no name or no <entry>");
        }
        return new MemoryEntry(expected, name, centurio, notes, revocation);
      } finally {
        r.close();
      }
    } catch (XMLStreamException | RuntimeException e) {
      if (e instanceof MemoryStorageException m) {
        throw m;
      }
      throw new MemoryStorageException(fileName + " is not a readable memoria file: " + why(e), e);
    }
  }

  private static final String FIX = "; fix the file or move it out of its folder";

  private static MemoryStorageException broken(String fileName, String why) {
    return new MemoryStorageException(
        fileName + " is not a readable memoria file: " + why + FIX, null);
  }

  /**
   * What the XML parser found wrong, in words: its line and column and its message without the
   * parser's own framing ({@code ParseError at [row,col]:[1,30] Message: ...}); a byte that is not
   * UTF-8 is named as such.
   */
  private static String why(Exception e) {
    String message = String.valueOf(e.getMessage());
    int cut = message.indexOf("Message: ");
    if (cut >= 0) {
      message = message.substring(cut + "Message: ".length());
    }
    message = message.strip();
    String fix = FIX;
    if (message.startsWith("Invalid byte") && message.contains("UTF-8")) {
      message = "a byte that is not UTF-8 (saved as Latin-1?)";
      fix = "; save it as UTF-8";
    }
    if (e instanceof XMLStreamException x && x.getLocation() != null) {
      return "line "
          + x.getLocation().getLineNumber()
          + ", column "
          + x.getLocation().getColumnNumber()
          + ": "
          + message
          + fix;
    }
    return message + fix;
  }

  /** Writes a fragment with {@code body} and returns it as a string. */
  static String write(Body body) {
    Writer out = new StringWriter();
    try {
      XMLStreamWriter w = OUTPUT.createXMLStreamWriter(out);
      body.write(w);
      w.flush();
      w.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("cannot write XML", e);
    }
    return out.toString();
  }

  @FunctionalInterface
  interface Body {
    void write(XMLStreamWriter w) throws XMLStreamException;
  }

  /**
   * Refuses a text XML 1.0 cannot carry (C0 controls other than tab, newline and carriage return;
   * U+FFFE, U+FFFF; unpaired surrogates), or one above {@code maxBytes} of UTF-8, naming the
   * position of the first bad character.
   */
  static String requireText(String text, String what, long maxBytes) {
    if (text == null) {
      throw new MemoryException(what + " is missing");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean ok;
      if (Character.isHighSurrogate(c)) {
        ok = i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        if (ok) {
          i++;
        }
      } else {
        ok =
            c == '\t'
                || c == '\n'
                || c == '\r'
                || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD);
      }
      if (!ok) {
        throw new MemoryException(
            what
                + " contains the character U+"
                + String.format("%04X", (int) c)
                + " at position "
                + i
                + ", which XML cannot hold; remove it");
      }
    }
    if (text.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
      throw new MemoryException(
          what + " is larger than " + maxBytes + " bytes of UTF-8; shorten it");
    }
    return text;
  }
}
