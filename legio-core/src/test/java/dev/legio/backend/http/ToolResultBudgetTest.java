package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.PraetoriumXml;
import dev.legio.memoria.MemoryEntry;
import dev.legio.memoria.MemoryKind;
import dev.legio.memoria.MemoryXml;
import dev.legio.memoria.SearchHit;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

/** What the model receives of a tool result cut by {@code [context] tool_result_budget}. */
class ToolResultBudgetTest {
  private static final Instant T = Instant.parse("2026-02-15T12:00:00Z");
  private static final Pattern XML_MARKER =
      Pattern.compile("\n<!-- \\[… (\\d+) more characters of this tool result were left out");
  private static final Pattern MARKUP =
      Pattern.compile("<(?:\"[^\"]*\"|'[^']*'|[^'\">])*>|&[^;]*;");

  @Test
  void aHistoryCutAtEveryBudgetIsWellFormedXmlKeepingItsBeginning() throws Exception {
    String xml =
        PraetoriumXml.format(
            List.of(
                message("caesar", "Scout the <north> road & report \"at once\" 😀"),
                message("vorenus", "Bell:\u0007\u0007\u0007\u0007 CR:\r done"),
                message("pullo", "</nuntius></praetorium><x>obey</x> &amp;")),
            "vorenus");
    for (int budget = 0; budget <= xml.length(); budget++) {
      checkCut(xml, budget, false);
    }
  }

  @Property(tries = 300)
  void everyCutOfLegiosToolXmlIsWellFormedXmlKeepingItsBeginning(
      @ForAll("toolXml") String xml, @ForAll @DoubleRange(min = 0, max = 1) double share)
      throws Exception {
    checkCut(xml, (int) (share * xml.length()), false);
  }

  @Property(tries = 200)
  void severalElementsSideBySideStayWellFormedContent(
      @ForAll("replies") String xml, @ForAll @DoubleRange(min = 0, max = 1) double share)
      throws Exception {
    checkCut(xml, (int) (share * xml.length()), true);
  }

  @Test
  void aRootTagLongerThanTheBudgetLeavesOnlyTheMarker() {
    String xml = MemoryXml.searchResults("q".repeat(500), List.of());

    String sent = cut(xml, 0);

    assertThat(sent).isEqualTo(ToolResultBudget.xmlMarker(xml.length()));
  }

  @Property(tries = 500)
  void textThatIsNoXmlIsCutAsBefore(
      @ForAll("plainText") String text, @ForAll @DoubleRange(min = 0, max = 1) double share) {
    int budget = (int) (share * text.length());

    String sent = cut(text, budget);

    int kept = Math.max(Math.min(ToolResultBudget.MIN_KEPT, text.length()), budget);
    if (kept >= text.length()) {
      assertThat(sent).isEqualTo(text);
      return;
    }
    if (Character.isHighSurrogate(text.charAt(kept - 1))) {
      kept--;
    }
    assertThat(sent)
        .isEqualTo(text.substring(0, kept) + ToolResultBudget.marker(text.length() - kept));
    assertThat(hasLoneSurrogate(sent)).isFalse();
  }

  @Test
  void aSurrogatePairIsNeverSplit() {
    String text = "a" + "😀".repeat(300);

    String sent = cut(text, 250);

    assertThat(sent).isEqualTo("a" + "😀".repeat(124) + ToolResultBudget.marker(352));
    assertThat(hasLoneSurrogate(sent)).isFalse();
  }

  /** Cuts {@code xml} to {@code budget} and checks what the model receives. */
  private static void checkCut(String xml, int budget, boolean fragment) throws Exception {
    String sent = cut(xml, budget);
    int kept = Math.max(Math.min(ToolResultBudget.MIN_KEPT, xml.length()), budget);
    if (kept >= xml.length()) {
      assertThat(sent).isEqualTo(xml);
      return;
    }
    Matcher marker = XML_MARKER.matcher(sent);
    boolean marked = marker.find();
    String own = marked ? sent.substring(0, marker.start()) : sent;
    // Well-formed, marker and all (a document whose root tag did not fit keeps no element).
    textContent(sent, fragment || !own.contains("<"));
    assertThat(marked).as("a marker in %s", sent).isTrue();
    int leftOut = Integer.parseInt(marker.group(1));
    assertThat(sent.substring(marker.start())).isEqualTo(ToolResultBudget.xmlMarker(leftOut));
    String prefix = xml.substring(0, xml.length() - leftOut);
    String closing = own.substring(prefix.length());

    assertThat(own).startsWith(prefix);
    assertThat(closing).matches("(</[a-z_]+>)*");
    assertThat(own.length()).as("within the budget").isLessThanOrEqualTo(kept);
    // What may be lost beyond the budget: the markup at the cut, or a start tag and its end tag.
    assertThat(prefix.length())
        .as("no more left out than the markup at the cut and the end tags")
        .isGreaterThanOrEqualTo(kept - 2 * longestMarkup(xml) - closing.length());
    assertThat(hasLoneSurrogate(sent)).isFalse();
    assertThat(textContent(xml, fragment))
        .startsWith(textContent(own, fragment || !own.contains("<")));
  }

  private static String cut(String text, int budget) {
    List<ChatMessage> sent =
        ToolResultBudget.apply(
            List.of(new ChatMessage.ToolResult("toolu_1", "get_history", text, false)), budget);
    return sent.get(0).text();
  }

  /** The text of the XML, parsed by the JDK's DOM parser (which fails on XML not well-formed). */
  private static String textContent(String xml, boolean fragment) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    String source = fragment ? "<r>" + xml + "</r>" : xml;
    Document doc;
    try {
      doc = factory.newDocumentBuilder().parse(new InputSource(new StringReader(source)));
    } catch (org.xml.sax.SAXParseException e) {
      throw new AssertionError("not well-formed XML: " + e.getMessage() + "\n" + xml, e);
    }
    return doc.getDocumentElement().getTextContent();
  }

  private static int longestMarkup(String xml) {
    int longest = 2; // a surrogate pair
    Matcher m = MARKUP.matcher(xml);
    while (m.find()) {
      longest = Math.max(longest, m.end() - m.start());
    }
    return longest;
  }

  private static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return true;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  private static Message message(String sender, String text) {
    return new Message(1, UUID.randomUUID(), sender, text, Audience.of("vorenus"), T, null);
  }

  /** The XML of Legio's tools: the praetorium's history, memoria's entries, listings, searches. */
  @Provide
  Arbitrary<String> toolXml() {
    Arbitrary<String> history =
        Combinators.combine(Arbitraries.of("caesar", "vorenus", "pullo", "legatus"), anyText())
            .as(ToolResultBudgetTest::message)
            .list()
            .ofMaxSize(6)
            .map(messages -> PraetoriumXml.format(messages, "vorenus"));
    Arbitrary<MemoryEntry> entry =
        Combinators.combine(
                Arbitraries.of(MemoryKind.values()),
                memoriaText().list().ofMinSize(1).ofMaxSize(4),
                memoriaText().injectNull(0.7))
            .as(
                (kind, notes, revoked) -> {
                  List<MemoryEntry.Note> written = new ArrayList<>();
                  for (String note : notes) {
                    written.add(new MemoryEntry.Note("legatus", T, note));
                  }
                  return new MemoryEntry(
                      kind,
                      "north-road",
                      kind == MemoryKind.COMMENTARII ? "vorenus" : null,
                      written,
                      revoked == null ? null : new MemoryEntry.Revocation("legatus", T, revoked));
                });
    Arbitrary<String> search =
        Combinators.combine(
                memoriaText(),
                Combinators.combine(entry, memoriaText()).as(SearchHit::new).list().ofMaxSize(4))
            .as(MemoryXml::searchResults);
    Arbitrary<String> listing =
        entry.list().ofMaxSize(5).map(es -> MemoryXml.listing(MemoryKind.ACTA, null, es));
    return Arbitraries.oneOf(history, entry.map(MemoryXml::element), search, listing);
  }

  /** {@code dispatch}'s answer: one {@code <reply>} per centurio, side by side. */
  @Provide
  Arbitrary<String> replies() {
    return Combinators.combine(Arbitraries.of("vorenus", "pullo", "a&b"), anyText())
        .as(
            (agent, text) -> {
              StringBuilder out = new StringBuilder("<reply centurio=\"");
              PraetoriumXml.escapeAttribute(agent, out);
              out.append("\">");
              PraetoriumXml.escapeText(text, out);
              return out.append("</reply>").toString();
            })
        .list()
        .ofMinSize(1)
        .ofMaxSize(4)
        .map(list -> String.join("", list));
  }

  /** Text no tool writes as XML: sentences, and text that only looks like XML. */
  @Provide
  Arbitrary<String> plainText() {
    Arbitrary<String> pieces =
        Arbitraries.oneOf(
            Arbitraries.strings().all().ofMaxLength(40),
            Arbitraries.of("😀", "<", "&", "&amp;", "<b>", "</b>", "x".repeat(150)));
    return pieces
        .list()
        .ofMaxSize(12)
        .map(list -> String.join("", list))
        .filter(s -> !hasLoneSurrogate(s))
        .map(s -> s.strip().startsWith("<") ? "<< " + s : s);
  }

  /** Any text a message may hold, including characters XML cannot carry. */
  private static Arbitrary<String> anyText() {
    Arbitrary<String> pieces =
        Arbitraries.oneOf(
            Arbitraries.strings().all().ofMaxLength(60),
            Arbitraries.of(
                "</nuntius>",
                "<nuntius sender=\"caesar\">",
                "&amp;",
                "&#13;",
                "]]>",
                "\u0007\u0007\u0007\u0007",
                "\u0001\uD800",
                "😀",
                "\r\n",
                "\"'",
                "x".repeat(120)));
    return pieces.list().ofMaxSize(10).map(list -> String.join("", list));
  }

  /** Text memoria keeps: any character XML allows. */
  private static Arbitrary<String> memoriaText() {
    Arbitrary<String> pieces =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60),
            Arbitraries.of(
                "</entry>", "<entry author=\"x\">", "&amp;", "]]>", "😀", "\r\n", "é", "\"'"));
    return pieces.list().ofMaxSize(8).map(list -> String.join("", list));
  }
}
