package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Audience;
import dev.legio.log.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class HistoryBudgetTest {
  private static Message message(long sequence, String text) {
    return new Message(
        sequence,
        UUID.randomUUID(),
        "caesar",
        text,
        Audience.of("vorenus"),
        Instant.parse("2026-11-27T09:00:00Z"),
        null);
  }

  @Test
  void messagesWithinTheBudgetAreCarriedWhole() {
    List<Message> messages = List.of(message(1, "scout"), message(2, "report"));
    assertThat(HistoryBudget.of(1_000).fit(messages)).isEqualTo(messages);
  }

  @Test
  void aMessageOverAQuarterOfTheBudgetIsCutAndSaysWhereTheWholeIs() {
    // max_input_tokens 1,000: 2,000 characters in all, 500 a message.
    Message pasted = message(1, "x".repeat(10_000));
    List<Message> fitted = HistoryBudget.of(1_000).fit(List.of(pasted, message(2, "and?")));

    assertThat(fitted).hasSize(2);
    Message cut = fitted.get(0);
    assertThat(cut.id()).isEqualTo(pasted.id());
    assertThat(cut.text())
        .startsWith("x".repeat(500))
        .doesNotContain("x".repeat(501))
        .endsWith(
            "[… 9500 more characters not shown here: the whole message is in the praetorium,"
                + " nuntius "
                + pasted.id()
                + "]");
    assertThat(fitted.get(1).text()).isEqualTo("and?");
  }

  @Test
  void theNewestThatFitAreCarriedAndTheOlderLeftOut() {
    List<Message> messages = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      messages.add(message(i, String.valueOf((char) ('a' + i)).repeat(400)));
    }
    List<Message> fitted = HistoryBudget.of(1_000).fit(messages);
    assertThat(fitted).extracting(Message::sequence).containsExactly(6L, 7L, 8L, 9L, 10L);
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    Message emoji = message(1, "🜂".repeat(1_000));
    String text = HistoryBudget.of(1_000).fit(List.of(emoji)).get(0).text();
    String kept = text.substring(0, text.indexOf("\n\n[…"));
    assertThat(kept.codePoints().allMatch(c -> c == "🜂".codePointAt(0))).isTrue();
  }
}
