package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryFileTest {
  private static final LocalDate DAY = LocalDate.parse("2026-11-21");

  @Test
  void oneReaderOfFactLinesForExtractionAndConsolidation() {
    String written = new ExtractedFact(FactCategory.DECISION, "Winter camp at Cularo", 0.9).line();
    assertThat(MemoryFile.parseFactLine(written))
        .contains(new MemoryFile.FactLine(FactCategory.DECISION, "Winter camp at Cularo", 0.9));
    // a hand edit with extra spaces is still a fact
    assertThat(MemoryFile.parseFactLine("- [pattern]   Scouts leave at dawn  (confidence  0.5)"))
        .contains(new MemoryFile.FactLine(FactCategory.PATTERN, "Scouts leave at dawn", 0.5));
    // a text longer than extraction writes is kept whole (consolidation must not cut it)
    String longText = "x".repeat(ExtractedFact.MAX_TEXT_LENGTH + 50);
    assertThat(
            MemoryFile.parseFactLine("- [project] " + longText + " (confidence 0.70)")
                .map(MemoryFile.FactLine::text))
        .contains(longText);
    assertThat(MemoryFile.parseFactLine("- [rumour] Gaul is quiet (confidence 0.50)")).isEmpty();
    assertThat(MemoryFile.parseFactLine("- [project] Gaul is quiet (confidence 1.50)")).isEmpty();
    assertThat(MemoryFile.parseFactLine("- [project] Gaul is quiet")).isEmpty();
    // consolidation reads the same facts, with its day
    assertThat(MemoryFile.parseFact(DAY, written))
        .isEqualTo(
            new ConsolidationFact(
                DAY, FactCategory.DECISION, "Winter camp at Cularo", 0.9, written));
  }

  @Test
  void parsingKeepsEveryLineAndRenderingWritesTheSameStructure() {
    String text =
        """
        # Memory — vorenus

        - [Roads](roads.md) — the northern roads
        - [Camps](camps.md)
        A hand-written note.

        ## Orders


        March at dawn.

        ## auto-extracted memories
        loose line before a day
        ### Session memories – 2026-11-21
        - [decision] Winter camp at Cularo (confidence 0.90)
        not a fact

        ### Session memories — 2026-11-22
        - [pattern] Scouts leave at dawn (confidence 0.50)
        """;
    MemoryFile file = MemoryFile.parse(text.replace("\n", "\r\n"));

    assertThat(file.title()).isEqualTo("# Memory — vorenus");
    assertThat(file.index())
        .containsExactly(
            new MemoryFile.IndexEntry("Roads", "roads.md", "the northern roads"),
            new MemoryFile.IndexEntry("Camps", "camps.md", null));
    assertThat(file.preamble()).containsExactly("A hand-written note.");
    assertThat(file.sections()).containsExactly("## Orders", "", "March at dawn.");
    assertThat(file.facts())
        .extracting(ConsolidationFact::day, ConsolidationFact::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(DAY, "Winter camp at Cularo"),
            org.assertj.core.groups.Tuple.tuple(DAY.plusDays(1), "Scouts leave at dawn"));
    assertThat(file.unparsed())
        .containsExactly(
            new MemoryFile.Unparsed(null, "loose line before a day"),
            new MemoryFile.Unparsed(DAY, "not a fact"));
    assertThat(file.render())
        .isEqualTo(
            """
            # Memory — vorenus

            - [Roads](roads.md) — the northern roads
            - [Camps](camps.md)

            A hand-written note.

            ## Orders

            March at dawn.

            ## Auto-extracted memories

            loose line before a day

            ### Session memories – 2026-11-21
            - [decision] Winter camp at Cularo (confidence 0.90)
            not a fact

            ### Session memories — 2026-11-22
            - [pattern] Scouts leave at dawn (confidence 0.50)
            """);
    assertThat(MemoryFile.parse(file.render())).isEqualTo(file);
  }

  @Test
  void appendingCreatesTheSectionAndReusesTheDaysHeadingOnlyWhenItIsTheLast() {
    ExtractedFact camp = new ExtractedFact(FactCategory.DECISION, "Winter camp at Cularo", 0.9);
    ExtractedFact dawn = new ExtractedFact(FactCategory.PATTERN, "Scouts leave at dawn", 0.5);

    String first = MemoryFile.appendFacts("", "vorenus", DAY, List.of(camp));
    assertThat(first)
        .isEqualTo(
            """
            # Memory — vorenus

            ## Auto-extracted memories

            ### Session memories — 2026-11-21
            - [decision] Winter camp at Cularo (confidence 0.90)
            """);
    assertThat(MemoryFile.appendFacts(first, "vorenus", DAY, List.of(dawn)))
        .isEqualTo(first + dawn.line() + "\n");

    String followed = first + "\n\n## Orders\nMarch at dawn.\n";
    assertThat(MemoryFile.appendFacts(followed, "vorenus", DAY.plusDays(1), List.of(dawn)))
        .isEqualTo(
            first
                + "\n### Session memories — 2026-11-22\n"
                + dawn.line()
                + "\n\n## Orders\nMarch at dawn.\n");
    assertThat(MemoryFile.parseFacts(followed)).containsExactly(camp);
  }
}
