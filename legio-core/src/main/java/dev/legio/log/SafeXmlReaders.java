package dev.legio.log;

import javax.xml.stream.XMLInputFactory;

/**
 * The XML reader factory every part of Legio that parses XML uses (the praetorium's blocks, memoria
 * entries, tool output, a cut prefix of a model's text).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>No DTD and no external entity, ever: text from a model, a tool or a file cannot make the
 *       parser read a file, reach the network or expand entities without bound.
 *   <li>One factory per user, made once: {@code XMLInputFactory.newFactory()} looks its
 *       implementation up on the class path (a scan of every jar) each time it is called. Readers
 *       made from a configured factory are safe from several threads.
 * </ul>
 */
public final class SafeXmlReaders {
  private SafeXmlReaders() {}

  /**
   * A new factory with DTDs and external entities off; {@code coalescing}: adjacent text and CDATA
   * read as one event.
   */
  public static XMLInputFactory factory(boolean coalescing) {
    XMLInputFactory input = XMLInputFactory.newFactory();
    input.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    input.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    input.setProperty(XMLInputFactory.IS_COALESCING, coalescing);
    return input;
  }
}
