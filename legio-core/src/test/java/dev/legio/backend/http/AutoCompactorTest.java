package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.Usage;
import dev.legio.config.LegioConfig;
import dev.legio.testing.RecordingSleeper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The auto-compactor alone: a window of 1000 tokens (threshold 900), a model scripted in process,
 * conversations in a real SQLite store. Sizes are handed in, so each case states the size it tests.
 */
class AutoCompactorTest {
  @TempDir Path dir;
  private HttpBackendHarness h;
  private final ScriptedChatClient script = new ScriptedChatClient();
  private final RetryingChatClient client =
      new RetryingChatClient(
          script, RetryPolicy.standard(0).withSleeper(new RecordingSleeper()), "Vendor", "v", null);
  private final List<BackendEvent> events = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new HttpBackendHarness(dir);
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private AutoCompactor compactor(boolean on, int keep) {
    HttpBackendSettings settings =
        new HttpBackendSettings(
            "claude-test",
            ContextWindows.hosted(Map.of("claude", 1000)),
            0,
            4,
            false,
            RetryPolicy.standard(0),
            new LegioConfig.Context(on, 0.9, 50_000, keep, 2));
    return new AutoCompactor(h.conversations(), settings, h.clock, "Vendor");
  }

  /** A stored conversation of {@code turns} one-round turns. */
  private Conversation conversation(int turns) {
    Conversation c =
        new Conversation(
            UUID.randomUUID(),
            "vorenus",
            "anthropic",
            "claude-test",
            "system",
            null,
            null,
            Instant.parse("2026-03-01T09:00:00Z"),
            List.of());
    h.conversations().create(c);
    for (int i = 0; i < turns; i++) {
      ConversationTurn turn =
          new ConversationTurn(
              i,
              List.of(
                  new ChatMessage.User("question " + i),
                  new ChatMessage.Assistant("answer " + i, List.of())),
              new Usage(100, 10, 0, 0, false),
              110L * (i + 1),
              c.createdAt());
      h.conversations().appendTurn(c.id(), turn);
      c = c.with(turn);
    }
    return c;
  }

  private Conversation compact(AutoCompactor compactor, Conversation c, long size) {
    return compactor.compactIfNeeded(c, "claude-test", client, any -> size, events::add);
  }

  @Test
  void atOrBelowTheThresholdNothingHappens() {
    Conversation c = conversation(3);
    assertThat(compact(compactor(true, 2), c, 900)).isSameAs(c);
    assertThat(script.requests).isEmpty();
    assertThat(events).isEmpty();
  }

  @Test
  void offOrWithoutATurnNothingHappensWhateverTheSize() {
    Conversation c = conversation(3);
    assertThat(compact(compactor(false, 2), c, 5_000)).isSameAs(c);
    Conversation empty = conversation(0);
    assertThat(compact(compactor(true, 2), empty, 5_000)).isSameAs(empty);
    assertThat(script.requests).isEmpty();
  }

  @Test
  void pastTheThresholdTheOlderRoundsAreSummarisedIntoANewStoredConversation() {
    Conversation c = conversation(3);
    script.answers("They scouted the road.", 50, 8);

    Conversation next = compact(compactor(true, 2), c, 901);

    assertThat(next.id()).isNotEqualTo(c.id());
    assertThat(next.previousId()).isEqualTo(c.id());
    assertThat(next.summary()).contains("They scouted the road.");
    assertThat(next.messages())
        .extracting(ChatMessage::text)
        .containsExactly("question 2", "answer 2");
    assertThat(h.conversations().find(next.id())).isPresent();
    ChatRequest ask = script.requests.get(0);
    assertThat(ask.systemPrompt()).isEqualTo(ContextSummary.INSTRUCTION);
    assertThat(ask.tools()).isEmpty();
    assertThat(ask.messages().get(0).text()).contains("question 0").contains("answer 1");
    assertThat(events)
        .containsExactly(
            new BackendEvent.CompactionStarted(4, 901, 900),
            new BackendEvent.CompactionEnded(4, 901, 901, next.summary()));
  }

  @Test
  void nothingOldEnoughMeansNothingToCompact() {
    Conversation c = conversation(1);
    assertThat(compact(compactor(true, 10), c, 5_000)).isSameAs(c);
    assertThat(events).isEmpty();
  }

  @Test
  void anEmptySummaryIsAFailureCountedByTheBreakerAndTheConversationStaysWhole() {
    Conversation c = conversation(3);
    script.answers(" ", 5, 1).answers("", 5, 1);
    AutoCompactor compactor = compactor(true, 2);

    Conversation once = compact(compactor, c, 1_000);
    Conversation twice = compact(compactor, once, 1_000);

    assertThat(once.id()).isEqualTo(c.id());
    assertThat(once.messages()).isEqualTo(c.messages());
    assertThat(twice.compactionFailures()).isEqualTo(2);
    assertThat(twice.compactionDisabled()).isTrue();
    assertThat(events)
        .contains(
            new BackendEvent.CompactionFailed("Vendor: the summary came back empty", 1, false),
            new BackendEvent.CompactionFailed("Vendor: the summary came back empty", 2, true));
    // The breaker is open: no third request.
    assertThat(compact(compactor, twice, 1_000)).isSameAs(twice);
    assertThat(script.requests).hasSize(2);
    assertThat(h.conversations().find(c.id()).orElseThrow().compactionDisabled()).isTrue();
  }

  @Test
  void aSummaryTooLongForTheWindowIsAFailureAndNothingIsStored() {
    Conversation c = conversation(3);
    script.answers("x".repeat(40_000), 50, 9_000);
    AutoCompactor compactor = compactor(true, 2);

    // The compacted conversation, summary and all, would be 1,200 tokens: past the 1,000 window.
    Conversation after =
        compactor.compactIfNeeded(
            c, "claude-test", client, any -> any.summary() == null ? 950 : 1_200, events::add);

    assertThat(after.id()).isEqualTo(c.id());
    assertThat(after.messages()).isEqualTo(c.messages());
    assertThat(after.compactionFailures()).isEqualTo(1);
    assertThat(events)
        .contains(
            new BackendEvent.CompactionFailed(
                "Vendor: the summary came back too long: the compacted conversation would be 1200"
                    + " tokens, more than the model's window of 1000",
                1,
                false));
    assertThat(h.conversations().find(c.id()).orElseThrow().compactionFailures()).isEqualTo(1);
  }

  @Test
  void aBrokenSummaryAnswerIsWordedAsACompactionsNotATurns() {
    assertThat(
            HttpFailure.withoutTurnAdvice(
                "Vendor at http://x: the answer broke off while it was streaming: reset. The turn"
                    + " was not stored; send the message again."))
        .isEqualTo("Vendor at http://x: the answer broke off while it was streaming: reset.");
  }
}
