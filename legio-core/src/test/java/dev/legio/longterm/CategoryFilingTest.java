package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class CategoryFilingTest {
  private static final LocalDate DAY = LocalDate.parse("2026-11-21");

  private static ConsolidationFact fact(FactCategory c, String text, double confidence) {
    return new ConsolidationFact(DAY, c, text, confidence, "- [" + c.label() + "] " + text);
  }

  @Test
  void aNewCategoryFileGetsItsTitleAndDatedBulletsWithAbsoluteDates() {
    String merged =
        CategoryFiling.mergeFacts(
            null,
            "Decisions",
            List.of(
                fact(FactCategory.DECISION, "Winter camp at   Cularo", 0.9),
                fact(FactCategory.DECISION, "The bridge fell yesterday", 0.75),
                new ConsolidationFact(null, FactCategory.DECISION, "Undated", 0.5, "- x")));

    assertThat(merged)
        .isEqualTo(
            """
            # Decisions

            - Winter camp at Cularo (confidence 0.90, 2026-11-21)
            - The bridge fell 2026-11-20 (confidence 0.75, 2026-11-21)
            - Undated (confidence 0.50)
            """);
  }

  @Test
  void aKnownBulletIsReplacedOnlyByAMoreConfidentFactAndOtherLinesStay() {
    String base =
        """
        # Decisions

        Written by hand.
        - Winter camp at Cularo (confidence 0.80, 2026-11-01)
        - Roads first. (confidence 0.60)


        """;
    String merged =
        CategoryFiling.mergeFacts(
            base,
            "Decisions",
            List.of(
                fact(FactCategory.DECISION, "winter camp at cularo.", 0.7),
                fact(FactCategory.DECISION, "ROADS   first", 0.95),
                fact(FactCategory.DECISION, "Scouts at dawn", 0.5),
                fact(FactCategory.DECISION, "scouts at dawn", 0.4)));

    assertThat(merged)
        .isEqualTo(
            """
            # Decisions

            Written by hand.
            - Winter camp at Cularo (confidence 0.80, 2026-11-01)
            - ROADS first (confidence 0.95, 2026-11-21)
            - Scouts at dawn (confidence 0.50, 2026-11-21)
            """);
  }

  @Test
  void factsGoToOneFileByCategoryKeepingTheModelsTitleHookAndAFileItWantedRemoved() {
    TopicFiles topics = new TopicFiles();
    topics.read.put("project.md", "# Project\n\n- Old fact (confidence 0.50)\n");
    topics.written.put(
        "decisions.md",
        new ConsolidationTopic("decisions.md", "Choices", "what we chose", "# Choices\n"));
    topics.removed.add("project.md");
    topics.removed.add("other.md");

    CategoryFiling.fileFacts(
        List.of(
            fact(FactCategory.PROJECT, "New fact", 0.8),
            fact(FactCategory.DECISION, "Camp at Cularo", 0.9),
            fact(FactCategory.PROJECT, "Another", 0.6)),
        topics);

    assertThat(topics.removed).containsExactly("other.md");
    assertThat(topics.written.get("project.md"))
        .isEqualTo(
            new ConsolidationTopic(
                "project.md",
                "Project",
                FactCategory.PROJECT.topicHook(),
                "# Project\n\n- Old fact (confidence 0.50)\n"
                    + "- New fact (confidence 0.80, 2026-11-21)\n"
                    + "- Another (confidence 0.60, 2026-11-21)\n"));
    assertThat(topics.written.get("decisions.md"))
        .isEqualTo(
            new ConsolidationTopic(
                "decisions.md",
                "Choices",
                "what we chose",
                "# Choices\n- Camp at Cularo (confidence 0.90, 2026-11-21)\n"));
  }

  @Test
  void linesThatAreNotFactsGoToUnsortedUnderAHeadingPerDay() {
    TopicFiles topics = new TopicFiles();
    CategoryFiling.fileUnsorted(
        List.of(
            new MemoryFile.Unparsed(null, "a stray note"),
            new MemoryFile.Unparsed(DAY, "- [rumour] Gaul is quiet (confidence 0.50)"),
            new MemoryFile.Unparsed(DAY, "another"),
            new MemoryFile.Unparsed(DAY.plusDays(1), "later")),
        topics);

    assertThat(topics.written.get(CategoryFiling.UNSORTED).content())
        .isEqualTo(
            """
            # Unsorted

            Lines of MEMORY.md that consolidation could not file elsewhere.

            ## From the auto-extracted memories

            a stray note

            ## From the session memories of 2026-11-21

            - [rumour] Gaul is quiet (confidence 0.50)
            another

            ## From the session memories of 2026-11-22

            later
            """);

    topics.read.put(CategoryFiling.UNSORTED, "kept by hand");
    topics.written.clear();
    CategoryFiling.fileUnsorted(List.of(), topics);
    assertThat(topics.written).isEmpty();
    CategoryFiling.appendUnsorted("\nmore\n", topics);
    assertThat(topics.written.get(CategoryFiling.UNSORTED).content())
        .isEqualTo("kept by hand\n\nmore\n");
  }
}
