package dev.legio.mcp;

import dev.legio.log.CharElement;
import dev.legio.log.SafeXmlReaders;
import dev.legio.tools.ToolResult;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A tool result as MCP structured output ({@code structuredContent}), beside the text the model
 * reads. Every Legio tool has the same {@link #SCHEMA output schema}:
 *
 * <ul>
 *   <li>{@code text}: the result exactly as in the text content (Legio's XML, or a sentence);
 *   <li>{@code error}: whether the call failed (the text then says what to correct);
 *   <li>{@code element}: when the text is XML, the same as fields: the root element's name, its
 *       attributes, its own text and its child elements, each of the same shape; absent for a
 *       sentence. A client reads {@code element.children[0].attributes.name} instead of parsing
 *       XML.
 * </ul>
 *
 * An element's {@code text} is its text exactly as stored: nothing stripped, and a character XML
 * cannot carry, written {@code <char code="U+0007" count="3"/>} in the XML ({@link CharElement}),
 * is that character again there, never a child element. Whitespace alone between child elements is
 * the XML's layout and no text. So the structured content is built in one pass over the XML, one
 * map per element that is not such a character: its size and the work it takes follow the text's
 * length, whatever characters the text holds.
 *
 * <p>XML is read with DTDs refused (no entity expansion, no external fetch).
 */
public final class ToolOutput {
  /** The output schema of every Legio tool. */
  public static final Map<String, Object> SCHEMA = schema();

  /**
   * One reader factory, configured once (looking a factory up scans the class path); readers made
   * from it are safe on several threads.
   */
  private static final XMLInputFactory INPUT = SafeXmlReaders.factory(true);

  private ToolOutput() {}

  /** The structured content of a result. */
  public static Map<String, Object> of(ToolResult result) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("text", result.text());
    out.put("error", result.error());
    String text = result.text().strip();
    if (text.startsWith("<") && text.endsWith(">")) {
      Map<String, Object> root = parse(text);
      if (root != null) {
        out.put("element", root);
      }
    }
    return out;
  }

  /** One element as it is read: its map, its own text so far, its child elements. */
  private record Open(
      Map<String, Object> map, StringBuilder text, List<Map<String, Object>> kids) {}

  private static Map<String, Object> parse(String xml) {
    try {
      XMLStreamReader r = INPUT.createXMLStreamReader(new StringReader(xml));
      try {
        return read(r);
      } finally {
        r.close();
      }
    } catch (XMLStreamException | RuntimeException e) {
      return null; // not XML after all: the text stands alone
    }
  }

  private static Map<String, Object> read(XMLStreamReader r) throws XMLStreamException {
    Deque<Open> open = new ArrayDeque<>();
    Map<String, Object> root = null;
    while (r.hasNext()) {
      switch (r.next()) {
        case XMLStreamConstants.START_ELEMENT -> {
          if (!open.isEmpty() && CharElement.at(r)) {
            CharElement.read(r, open.peek().text());
          } else {
            Open e = start(r);
            if (open.isEmpty()) {
              if (root != null) {
                throw new XMLStreamException("a second root element");
              }
              root = e.map();
            } else {
              open.peek().kids().add(e.map());
            }
            open.push(e);
          }
        }
        case XMLStreamConstants.CHARACTERS,
            XMLStreamConstants.CDATA,
            XMLStreamConstants.SPACE,
            XMLStreamConstants.ENTITY_REFERENCE -> {
          if (!open.isEmpty()) {
            open.peek().text().append(r.getText());
          }
        }
        case XMLStreamConstants.END_ELEMENT -> end(open.pop());
        default -> {
          // comments and processing instructions carry nothing a client needs
        }
      }
    }
    return root;
  }

  private static Open start(XMLStreamReader r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("element", r.getLocalName());
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < r.getAttributeCount(); i++) {
      attributes.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
    }
    out.put("attributes", attributes);
    List<Map<String, Object>> children = new ArrayList<>();
    return new Open(out, new StringBuilder(), children);
  }

  private static void end(Open e) {
    String text = e.text().toString();
    boolean layout = !e.kids().isEmpty() && text.isBlank();
    if (!text.isEmpty() && !layout) {
      e.map().put("text", text);
    }
    e.map().put("children", e.kids());
  }

  private static Map<String, Object> schema() {
    Map<String, Object> element = new LinkedHashMap<>();
    element.put("type", "object");
    element.put(
        "description",
        "The XML result as fields: the root element's name, attributes, own text and child"
            + " elements (each of the same shape). Absent when the result is a sentence.");
    element.put(
        "properties",
        Map.of(
            "element", Map.of("type", "string", "description", "The element's name."),
            "attributes",
                Map.of(
                    "type",
                    "object",
                    "description",
                    "The element's attributes.",
                    "additionalProperties",
                    Map.of("type", "string")),
            "text",
                Map.of(
                    "type",
                    "string",
                    "description",
                    "The element's own text, if any, exactly as stored (characters XML cannot"
                        + " carry included)."),
            "children",
                Map.of(
                    "type",
                    "array",
                    "description",
                    "The child elements, in order, each of this same shape.",
                    "items",
                    Map.of("type", "object"))));
    element.put("required", List.of("element", "attributes", "children"));

    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(
        "text",
        Map.of(
            "type",
            "string",
            "description",
            "The result as the model reads it: Legio's XML, or a sentence."));
    properties.put(
        "error",
        Map.of(
            "type",
            "boolean",
            "description",
            "Whether the call failed; the text then says what to correct."));
    properties.put("element", element);
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", List.of("text", "error"));
    return Map.copyOf(schema);
  }
}
