package dev.legio.backend.http.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.ConversationStoreException;
import dev.legio.backend.http.ConversationTurn;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link ConversationStore} must have (the rules in its Javadoc), run on each
 * database by a subclass that says how to open a {@link LegioStore} on it.
 */
public abstract class ConversationStoreContract {
  protected final MutableClock clock = MutableClock.at("2026-03-01T09:00:00.123456Z");
  private final List<LegioStore> opened = new ArrayList<>();
  private ConversationStore conversations;

  protected abstract LegioStore open(MutableClock clock);

  protected void afterStoresClosed() {}

  @BeforeEach
  void openStore() {
    conversations = openAnother().conversations();
  }

  @AfterEach
  void closeStores() {
    try {
      opened.forEach(LegioStore::close);
    } finally {
      afterStoresClosed();
    }
  }

  private LegioStore openAnother() {
    LegioStore store = open(clock);
    opened.add(store);
    return store;
  }

  private Conversation conversation(String summary, UUID previous) {
    return new Conversation(
        UUID.randomUUID(),
        "vorenus",
        "ollama",
        "llama3.2",
        "You are vorenus.\nLine two, with \"quotes\" and ünïcödé.",
        summary,
        previous,
        clock.instant(),
        List.of());
  }

  private ConversationTurn turn(int index, String user) {
    return new ConversationTurn(
        index,
        List.of(
            new ChatMessage.User(user),
            new ChatMessage.Assistant(
                "Looking.",
                List.of(
                    new ChatMessage.ToolUse("call_1", "memoria_search", "{\"query\":\"a\\\"b\"}"))),
            new ChatMessage.ToolResult("call_1", "memoria_search", "found <nothing> & more", true),
            new ChatMessage.Assistant("Answer " + index, List.of())),
        new Usage(100 + index, 20, 30, 5, false),
        155 + index,
        clock.instant());
  }

  @Test
  void aConversationReadsBackExactlyAsStoredWithItsTurnsInOrder() {
    Conversation c = conversation(null, null);
    conversations.create(c);
    conversations.appendTurn(c.id(), turn(0, "first"));
    clock.advance(Duration.ofSeconds(5));
    conversations.appendTurn(c.id(), turn(1, "second"));

    Conversation read = conversations.find(c.id()).orElseThrow();

    assertThat(read.id()).isEqualTo(c.id());
    assertThat(read.systemPrompt()).isEqualTo(c.systemPrompt());
    assertThat(read.summary()).isNull();
    assertThat(read.previousId()).isNull();
    assertThat(read.createdAt()).isEqualTo(c.createdAt());
    assertThat(read.turns()).hasSize(2);
    assertThat(read.turns().get(0).messages()).isEqualTo(turn(0, "first").messages());
    assertThat(read.turns().get(1).usage()).isEqualTo(new Usage(101, 20, 30, 5, false));
    assertThat(read.turns().get(1).contextTokens()).isEqualTo(156);
    assertThat(read.turns().get(1).createdAt())
        .isEqualTo(Instant.parse("2026-03-01T09:00:05.123456Z"));
  }

  @Test
  void aSummarisedConversationKeepsItsSummaryAndPredecessor() {
    Conversation old = conversation(null, null);
    conversations.create(old);
    Conversation next = conversation("They scouted the north road.", old.id());
    conversations.create(next);
    Conversation read = conversations.find(next.id()).orElseThrow();
    assertThat(read.summary()).isEqualTo("They scouted the north road.");
    assertThat(read.previousId()).isEqualTo(old.id());
    assertThat(read.turns()).isEmpty();
  }

  @Test
  void aCompactedConversationIsCreatedWithItsKeptTurnsAndCompactionState() {
    Conversation old = conversation(null, null);
    conversations.create(old);
    Conversation next =
        new Conversation(
                UUID.randomUUID(),
                "vorenus",
                "ollama",
                "llama3.2",
                "You are vorenus.",
                "<context_summary>\nThey scouted &lt;north&gt;.\n</context_summary>",
                old.id(),
                clock.instant(),
                List.of(),
                2,
                false)
            .with(turn(0, "kept one"))
            .with(turn(1, "kept two"));
    conversations.create(next);

    Conversation read = openAnother().conversations().find(next.id()).orElseThrow();
    assertThat(read.summary()).isEqualTo(next.summary());
    assertThat(read.turns()).hasSize(2);
    assertThat(read.messages()).isEqualTo(next.messages());
    assertThat(read.turns().get(1).contextTokens()).isEqualTo(156);
    assertThat(read.compactionFailures()).isEqualTo(2);
    assertThat(read.compactionDisabled()).isFalse();
    conversations.appendTurn(next.id(), turn(2, "after"));
    assertThat(conversations.find(next.id()).orElseThrow().turns()).hasSize(3);
  }

  @Test
  void aCompactedConversationWhoseTurnsCannotAllBeStoredIsNotStoredAtAll() {
    Conversation taken = conversation(null, null);
    conversations.create(taken);
    // The id is taken: nothing is written, not even the turn the existing empty one could take.
    Conversation clash =
        new Conversation(
                taken.id(),
                "vorenus",
                "ollama",
                "llama3.2",
                "Another prompt.",
                null,
                null,
                clock.instant(),
                List.of())
            .with(turn(0, "lost"));
    assertThatThrownBy(() -> conversations.create(clash))
        .isInstanceOf(ConversationStoreException.class);
    assertThat(conversations.find(taken.id()).orElseThrow().turns()).isEmpty();
    assertThat(conversations.find(taken.id()).orElseThrow().systemPrompt())
        .isEqualTo(taken.systemPrompt());
  }

  @Test
  void theCompactionStateIsRecordedAndSurvivesReopeningTheStore() {
    Conversation c = conversation(null, null);
    conversations.create(c);
    conversations.appendTurn(c.id(), turn(0, "first"));
    assertThat(conversations.find(c.id()).orElseThrow().compactionFailures()).isZero();

    conversations.updateCompactionState(c.id(), 1, false);
    conversations.updateCompactionState(c.id(), 3, true);

    Conversation read = openAnother().conversations().find(c.id()).orElseThrow();
    assertThat(read.compactionFailures()).isEqualTo(3);
    assertThat(read.compactionDisabled()).isTrue();
    assertThat(read.turns()).hasSize(1);
    conversations.updateCompactionState(c.id(), 0, false);
    assertThat(openAnother().conversations().find(c.id()).orElseThrow())
        .extracting(Conversation::compactionFailures, Conversation::compactionDisabled)
        .containsExactly(0, false);
  }

  @Test
  void theCompactionStateOfAConversationThatDoesNotExistIsRefused() {
    assertThatThrownBy(() -> conversations.updateCompactionState(UUID.randomUUID(), 1, false))
        .isInstanceOf(ConversationStoreException.class)
        .hasMessageContaining("no such conversation");
  }

  @Test
  void anUnknownConversationIsEmpty() {
    assertThat(conversations.find(UUID.randomUUID())).isEmpty();
  }

  @Test
  void aTurnWithATakenIndexIsRefusedAndChangesNothing() {
    Conversation c = conversation(null, null);
    conversations.create(c);
    conversations.appendTurn(c.id(), turn(0, "first"));

    assertThatThrownBy(() -> conversations.appendTurn(c.id(), turn(0, "again")))
        .isInstanceOf(ConversationStoreException.class)
        .hasMessageContaining("already has a turn 0");
    assertThat(conversations.find(c.id()).orElseThrow().turns())
        .singleElement()
        .satisfies(t -> assertThat(t.messages().get(0).text()).isEqualTo("first"));
  }

  @Test
  void aTurnOfAConversationThatDoesNotExistIsRefused() {
    assertThatThrownBy(() -> conversations.appendTurn(UUID.randomUUID(), turn(0, "x")))
        .isInstanceOf(ConversationStoreException.class)
        .hasMessageContaining("does not exist");
  }

  @Test
  void racingAppendsOfTheSameTurnLeaveExactlyOne() throws Exception {
    Conversation c = conversation(null, null);
    conversations.create(c);
    ConversationStore other = openAnother().conversations();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        ConversationStore store = i % 2 == 0 ? conversations : other;
        int n = i;
        Callable<Boolean> append =
            () -> {
              try {
                store.appendTurn(c.id(), turn(0, "writer " + n));
                return true;
              } catch (ConversationStoreException e) {
                return false;
              }
            };
        results.add(pool.submit(append));
      }
      int won = 0;
      for (Future<Boolean> r : results) {
        won += r.get() ? 1 : 0;
      }
      assertThat(won).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(conversations.find(c.id()).orElseThrow().turns()).hasSize(1);
  }

  @Test
  void anotherProcessReadsWhatOneWrote() {
    Conversation c = conversation(null, null);
    conversations.create(c);
    conversations.appendTurn(c.id(), turn(0, "first"));
    ConversationStore other = openAnother().conversations();
    assertThat(other.find(c.id()).orElseThrow().messages())
        .isEqualTo(conversations.find(c.id()).orElseThrow().messages());
  }

  @Test
  void inactiveConversationsAreDeletedWithTheirTurnsActiveOnesKept() {
    Conversation idle = conversation(null, null);
    conversations.create(idle);
    conversations.appendTurn(idle.id(), turn(0, "old"));
    Conversation busy = conversation(null, null);
    conversations.create(busy);
    clock.advance(Duration.ofDays(10));
    conversations.appendTurn(busy.id(), turn(0, "recent"));
    Conversation fresh = conversation(null, null);
    conversations.create(fresh);

    int deleted = conversations.deleteInactiveBefore(clock.instant().minus(Duration.ofDays(1)));

    assertThat(deleted).isEqualTo(1);
    assertThat(conversations.find(idle.id())).isEmpty();
    assertThat(conversations.find(busy.id())).isPresent();
    assertThat(conversations.find(fresh.id())).isPresent();
    // Its turns went with it: the index can be used by a conversation of the same id again.
    conversations.create(idle);
    conversations.appendTurn(idle.id(), turn(0, "again"));
  }
}
