package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryIndexBuilderTest {
  private static final LocalDate DAY = LocalDate.parse("2026-11-21");

  private static final String MEMORY =
      """
      # Memory — vorenus

      - [Roads](roads.md) — the northern roads
      - [Gone](gone.md) — deleted meanwhile
      - [Roads again](roads.md) — a repeat

      ## Auto-extracted memories

      ### Session memories — 2026-11-21
      - [decision] Winter camp at Cularo (confidence 0.90)
      - [decision] Winter camp at Cularo (confidence 0.90)
      a stray note
      - [pattern] Scouts leave at dawn (confidence 0.50)
      """;

  @Test
  void theIndexKeepsItsOrderDropsMissingFilesAndAddsNewOnesByName() {
    MemoryFile now = MemoryFile.parse(MEMORY);
    TopicFiles topics = new TopicFiles();
    topics.read.put("roads.md", "# The roads\n");
    topics.read.put("zeta.md", "intro\n# Zeta heading\n");
    topics.read.put("alpha.md", "no heading\n");
    topics.read.put("decisions.md", "# Decisions\n");
    topics.read.put("removed.md", "# Removed\n");
    topics.removed.add("removed.md");
    topics.written.put(
        "camps.md", new ConsolidationTopic("camps.md", "Camps", "where the legion winters", "#"));

    assertThat(MemoryIndexBuilder.index(now, topics))
        .containsExactly(
            new MemoryFile.IndexEntry("Roads", "roads.md", "the northern roads"),
            new MemoryFile.IndexEntry("alpha", "alpha.md", ""),
            new MemoryFile.IndexEntry("Camps", "camps.md", "where the legion winters"),
            new MemoryFile.IndexEntry(
                "Decisions", "decisions.md", FactCategory.DECISION.topicHook()),
            new MemoryFile.IndexEntry("Zeta heading", "zeta.md", ""));

    topics.written.put(
        "roads.md", new ConsolidationTopic("roads.md", "New title", "the roads, rewritten", "#"));
    assertThat(MemoryIndexBuilder.index(now, topics).get(0))
        .isEqualTo(new MemoryFile.IndexEntry("Roads", "roads.md", "the roads, rewritten"));
  }

  @Test
  void consumedLinesLeaveTheExtractedSectionOnceEachAndTheRestStays() {
    MemoryFile now = MemoryFile.parse(MEMORY);
    List<ConsolidationFact> consolidated = List.of(now.facts().get(0));
    List<MemoryFile.Unparsed> filed = now.unparsed();
    TopicFiles topics = new TopicFiles();
    topics.read.put("roads.md", "# Roads\n");

    MemoryIndexBuilder.Built built =
        MemoryIndexBuilder.build("vorenus", now, consolidated, filed, topics, 200);

    assertThat(built.movedToUnsorted()).isFalse();
    assertThat(built.warnings()).isEmpty();
    assertThat(built.file().render())
        .isEqualTo(
            """
            # Memory — vorenus

            - [Roads](roads.md) — the northern roads

            ## Auto-extracted memories

            ### Session memories — 2026-11-21
            - [decision] Winter camp at Cularo (confidence 0.90)
            - [pattern] Scouts leave at dawn (confidence 0.50)
            """);
  }

  @Test
  void aFileWithNoTitleGetsTheAgentsAndNothingLeftIsAnEmptyFile() {
    MemoryIndexBuilder.Built built =
        MemoryIndexBuilder.build(
            "pullo", MemoryFile.empty(), List.of(), List.of(), new TopicFiles(), 200);

    assertThat(built.file().title()).isEqualTo("# Memory — pullo");
    assertThat(built.file().index()).isEmpty();
    assertThat(built.file().extracted()).isEmpty();
  }

  @Test
  void overTheLimitFreeTextMovesToUnsortedFirst() {
    MemoryFile now =
        MemoryFile.parse(
            """
            # Memory — vorenus

            - [Roads](roads.md) — the northern roads
            Free text one.
            Free text two.

            ## Orders

            March at dawn.
            """);
    TopicFiles topics = new TopicFiles();
    topics.read.put("roads.md", "# Roads\n");

    MemoryIndexBuilder.Built built =
        MemoryIndexBuilder.build("vorenus", now, List.of(), List.of(), topics, 5);

    assertThat(built.movedToUnsorted()).isTrue();
    assertThat(built.warnings()).isEmpty();
    assertThat(built.file().render())
        .isEqualTo(
            """
            # Memory — vorenus

            - [Roads](roads.md) — the northern roads
            - [Unsorted](unsorted.md) — lines of MEMORY.md kept here by consolidation
            """);
    assertThat(topics.written.get(CategoryFiling.UNSORTED).content())
        .endsWith(
            """

            ## Moved from MEMORY.md (over 5 lines)

            Free text one.
            Free text two.

            ## Orders

            March at dawn.
            """);
  }

  @Test
  void stillOverTheLimitTheIndexTailBecomesOneEntryWithAWarning() {
    TopicFiles topics = new TopicFiles();
    for (String name : List.of("a.md", "b.md", "c.md", "d.md", "e.md", "f.md")) {
      topics.read.put(name, "# " + name + "\n");
    }
    MemoryFile now =
        MemoryFile.parse(
            """
            # Memory — vorenus

            ## Auto-extracted memories

            ### Session memories — 2026-11-21
            - [decision] Winter camp at Cularo (confidence 0.90)
            """);

    MemoryIndexBuilder.Built built =
        MemoryIndexBuilder.build("vorenus", now, List.of(), List.of(), topics, 9);

    assertThat(built.file().lines()).hasSize(9);
    assertThat(built.file().index())
        .extracting(MemoryFile.IndexEntry::file)
        .containsExactly("a.md", "#");
    assertThat(built.file().index().get(1).line())
        .isEqualTo("- [More topics](#) — 5 more topic files in this folder are not listed");
    assertThat(built.warnings())
        .containsExactly(
            "MEMORY.md would pass 9 lines: 5 topic files are left out of the index (merge some)");
    assertThat(built.file().facts()).extracting(ConsolidationFact::day).containsExactly(DAY);
  }
}
