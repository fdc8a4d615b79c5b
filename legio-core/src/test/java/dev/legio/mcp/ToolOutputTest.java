package dev.legio.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.PraetoriumXml;
import dev.legio.tools.ToolResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ToolOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String history(String text) {
    Message m =
        new Message(
            1,
            UUID.randomUUID(),
            "pullo",
            text,
            Audience.of("vorenus"),
            Instant.parse("2026-02-15T12:00:00Z"),
            null);
    return PraetoriumXml.format(List.of(m), "vorenus");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> firstChild(Map<String, Object> out) {
    Map<String, Object> root = (Map<String, Object>) out.get("element");
    return ((List<Map<String, Object>>) root.get("children")).get(0);
  }

  @Test
  void anElementsTextIsTheStoredTextExactly() {
    for (String text :
        List.of("  padded  ", "a\u0007b\u0007c", "x\uFFFEy", "\u0001\u0001\u0001", "\n", "a\rb")) {
      String xml = history(text);
      Map<String, Object> out = ToolOutput.of(ToolResult.ok(xml));
      Map<String, Object> nuntius = firstChild(out);
      assertThat(nuntius.get("text"))
          .as("text %s", text.codePoints().boxed().toList())
          .isEqualTo(text);
      assertThat((List<?>) nuntius.get("children")).isEmpty();
      assertThat(out.get("text")).isEqualTo(xml);
    }
  }

  @Test
  void layoutBetweenChildElementsIsNoText() {
    Map<String, Object> out =
        ToolOutput.of(ToolResult.ok("<acta>\n  <actum name=\"a\"/>\n</acta>"));
    @SuppressWarnings("unchecked")
    Map<String, Object> root = (Map<String, Object>) out.get("element");
    assertThat(root).doesNotContainKey("text");
    assertThat(firstChild(out).get("attributes")).isEqualTo(Map.of("name", "a"));
  }

  @Test
  void aMessageOfControlCharactersGivesStructuredContentOfItsOwnSize() throws Exception {
    int n = 64 * 1024;
    Map<String, Object> out = ToolOutput.of(ToolResult.ok(history("\u0007".repeat(n))));
    // each U+0007 is six bytes of JSON ("\u0007") once, in the element's text
    assertThat(JSON.writeValueAsString(out)).hasSizeLessThan(7 * n + 1_000);
    assertThat(firstChild(out).get("text")).isEqualTo("\u0007".repeat(n));

    String mixed = "\u0007\u0008".repeat(n / 2);
    out = ToolOutput.of(ToolResult.ok(history(mixed)));
    // "U+0007 " in the XML, "\u0007" in the element's text
    assertThat(JSON.writeValueAsString(out)).hasSizeLessThan(13 * n + 1_000);
    assertThat(firstChild(out).get("text")).isEqualTo(mixed);
  }

  @Test
  void aSentenceOrBrokenXmlHasNoElement() {
    assertThat(ToolOutput.of(ToolResult.ok("Ave."))).doesNotContainKey("element");
    assertThat(ToolOutput.of(ToolResult.ok("<a></b>"))).doesNotContainKey("element");
    assertThat(ToolOutput.of(ToolResult.ok("<a/><b/>"))).doesNotContainKey("element");
  }
}
