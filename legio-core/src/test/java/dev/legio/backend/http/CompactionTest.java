package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.Usage;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CompactionTest {
  private static final Instant AT = Instant.parse("2026-03-01T09:00:00Z");

  private static Conversation conversation(List<List<ChatMessage>> turns) {
    Conversation c =
        new Conversation(
            UUID.randomUUID(),
            "vorenus",
            "anthropic",
            "claude",
            "prompt",
            null,
            null,
            AT,
            List.of());
    for (List<ChatMessage> messages : turns) {
      c =
          c.with(
              new ConversationTurn(
                  c.turns().size(), messages, new Usage(900, 90, 0, 0, false), 990, AT));
    }
    return c;
  }

  private static List<ChatMessage> simple(String q, String a) {
    return List.of(new ChatMessage.User(q), new ChatMessage.Assistant(a, List.of()));
  }

  private static List<ChatMessage> tools(String q, int calls) {
    List<ChatMessage> m = new java.util.ArrayList<>();
    m.add(new ChatMessage.User(q));
    for (int i = 0; i < calls; i++) {
      m.add(
          new ChatMessage.Assistant("", List.of(new ChatMessage.ToolUse("t" + i, "search", "{}"))));
      m.add(new ChatMessage.ToolResult("t" + i, "search", "result " + i, false));
    }
    m.add(new ChatMessage.Assistant("done", List.of()));
    return m;
  }

  @Test
  void nothingOlderThanTheKeptMessagesMeansNothingToCompact() {
    assertThat(Compaction.plan(conversation(List.of(simple("q1", "a1"))), 10)).isEmpty();
    assertThat(Compaction.plan(conversation(List.of(simple("q1", "a1"))), 2)).isEmpty();
    // One long turn whose only boundaries lie inside the kept messages.
    assertThat(Compaction.plan(conversation(List.of(tools("q", 3))), 7)).isEmpty();
  }

  @Test
  void keepingNothingStillLeavesTheLastRound() {
    Compaction plan =
        Compaction.plan(conversation(List.of(simple("q1", "a1"), simple("q2", "a2"))), 0)
            .orElseThrow();
    assertThat(plan.older()).hasSize(2);
    assertThat(plan.kept()).singleElement().satisfies(t -> assertThat(t.messages()).hasSize(2));
  }

  @Test
  void aCutIsMovedBackToARoundBoundaryAndKeepsTheTurnsUserMessage() {
    // q1 a1 | q A(t0) R0 | A(t1) R1 | A(t2) R2 | done: keep 3 -> at most cut 8 -> boundary 7.
    Conversation c = conversation(List.of(simple("q1", "a1"), tools("q", 3)));
    Compaction plan = Compaction.plan(c, 3).orElseThrow();
    assertThat(plan.older()).hasSize(7);
    assertThat(plan.older().get(6)).isInstanceOf(ChatMessage.ToolResult.class);
    List<ChatMessage> kept = plan.kept().get(0).messages();
    assertThat(kept).hasSize(4);
    assertThat(kept.get(0)).isEqualTo(new ChatMessage.User("q"));
    assertThat(((ChatMessage.Assistant) kept.get(1)).toolUses().get(0).id()).isEqualTo("t2");
    assertThat(((ChatMessage.ToolResult) kept.get(2)).toolUseId()).isEqualTo("t2");
    assertThat(plan.messagesCompacted()).isEqualTo(10 - 4);
    assertThat(Compaction.rounds(plan.older())).extracting(List::size).containsExactly(2, 3, 2);

    Conversation next = plan.conversation(UUID.randomUUID(), c, ContextSummary.block("s"), AT);
    assertThat(next.turns()).singleElement().satisfies(t -> assertThat(t.index()).isZero());
    assertThat(next.previousId()).isEqualTo(c.id());
    // The size after the kept turn is the compacted conversation's, not the 990 reported before.
    assertThat(next.contextTokens()).isEqualTo(next.estimateTokens()).isLessThan(100);
    assertThat(next.turns().get(0).usage()).isEqualTo(c.turns().get(1).usage());
  }
}
