package dev.legio.mcp;

import dev.legio.tools.ToolResult;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

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
 * XML is read with DOCTYPEs refused (no entity expansion, no external fetch).
 */
public final class ToolOutput {
  /** The output schema of every Legio tool. */
  public static final Map<String, Object> SCHEMA = schema();

  private ToolOutput() {}

  /** The structured content of a result. */
  public static Map<String, Object> of(ToolResult result) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("text", result.text());
    out.put("error", result.error());
    String text = result.text().strip();
    if (text.startsWith("<") && text.endsWith(">")) {
      Element root = parse(text);
      if (root != null) {
        out.put("element", element(root));
      }
    }
    return out;
  }

  private static Map<String, Object> element(Element e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("element", e.getTagName());
    Map<String, String> attributes = new LinkedHashMap<>();
    NamedNodeMap attrs = e.getAttributes();
    for (int i = 0; i < attrs.getLength(); i++) {
      Node a = attrs.item(i);
      attributes.put(a.getNodeName(), a.getNodeValue());
    }
    out.put("attributes", attributes);
    StringBuilder own = new StringBuilder();
    List<Map<String, Object>> children = new ArrayList<>();
    NodeList nodes = e.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      switch (n.getNodeType()) {
        case Node.ELEMENT_NODE -> children.add(element((Element) n));
        case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> own.append(n.getNodeValue());
        default -> {
          // comments and processing instructions carry nothing a client needs
        }
      }
    }
    String text = own.toString().strip();
    if (!text.isEmpty()) {
      out.put("text", text);
    }
    out.put("children", children);
    return out;
  }

  private static Element parse(String xml) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setExpandEntityReferences(false);
      factory.setNamespaceAware(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(null);
      return builder.parse(new InputSource(new StringReader(xml))).getDocumentElement();
    } catch (ParserConfigurationException | SAXException | IOException e) {
      return null; // not XML after all: the text stands alone
    }
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
            "text", Map.of("type", "string", "description", "The element's own text, if any."),
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
