package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class RepliesTest {

  private static String printed(BackendEvent... events) {
    StringWriter out = new StringWriter();
    var listener = Replies.statusLines(new PrintWriter(out));
    for (BackendEvent e : events) {
      listener.onEvent("vorenus", e);
    }
    return out.toString();
  }

  @Test
  void compactionEventsArePrintedAsProgressLines() {
    String text =
        printed(
            new BackendEvent.Status("⏳ Thinking..."),
            new BackendEvent.CompactionStarted(42, 181_000, 180_000),
            new BackendEvent.CompactionEnded(
                42, 181_000, 31_000, "<context_summary>\nx\n</context_summary>"),
            new BackendEvent.Text("answer text is not a progress line"),
            new BackendEvent.ToolCall("memoria_search", "{}"));

    assertThat(text.lines())
        .containsExactly(
            "[vorenus] ⏳ Thinking...",
            "[vorenus] 📜 Compacting the conversation (181,000 tokens, over 180,000): summarising"
                + " 42 older messages...",
            "[vorenus] 📜 Compacted 42 messages into a summary: 150,000 tokens freed (181,000 →"
                + " 31,000)");
  }

  @Test
  void aFailedCompactionSaysWhenAutoCompactIsNowOff() {
    assertThat(printed(new BackendEvent.CompactionFailed("HTTP 400: too long", 2, false)))
        .contains("[vorenus] ⚠ Compacting the conversation failed (2 in a row): HTTP 400: too long")
        .doesNotContain("auto-compact is now off");
    assertThat(printed(new BackendEvent.CompactionFailed("HTTP 400: too long", 3, true)))
        .contains("(3 in a row)")
        .contains("auto-compact is now off for this session");
  }
}
