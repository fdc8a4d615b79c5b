package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicFilesTest {
  @Test
  void aFilesContentIsTheRunsVersionElseTheFoldersAndRemovedFilesDoNotExist() {
    TopicFiles topics = new TopicFiles();
    topics.read.put("roads.md", "# Roads on disk\n");
    topics.read.put("old.md", "# Old\n");
    topics.written.put("roads.md", new ConsolidationTopic("roads.md", "Roads", "", "# Roads\n"));
    topics.written.put("camps.md", new ConsolidationTopic("camps.md", "Camps", "", "# Camps\n"));
    topics.removed.add("old.md");

    assertThat(topics.content("roads.md")).isEqualTo("# Roads\n");
    assertThat(topics.content("old.md")).isEqualTo("# Old\n");
    assertThat(topics.content("none.md")).isNull();
    assertThat(topics.existing()).containsExactly("camps.md", "roads.md");
  }
}
