package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.ContextUse;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Each change of a session record changes the components it names and keeps every other one: a
 * record whose components all differ from each other shows a value put in the wrong place.
 */
class SessionRecordTest {
  private static final Instant CREATED = Instant.parse("2026-11-01T10:00:00Z");
  private static final Instant ACTIVE = Instant.parse("2026-11-02T10:00:00Z");
  private static final Instant EXPIRES = Instant.parse("2026-12-02T10:00:00Z");
  private static final Instant NOW = Instant.parse("2026-11-03T10:00:00Z");
  private static final Instant LATER = Instant.parse("2026-12-03T10:00:00Z");
  private static final ContextUse USE = ContextUse.of(5_000, 200_000);

  private final SessionRecord record =
      new SessionRecord(
          "vorenus",
          UUID.fromString("01a21b67-0000-7000-8000-000000000001"),
          "anthropic",
          "conv-2",
          "prompt-hash",
          "roster-hash",
          11,
          12,
          13,
          14,
          CREATED,
          ACTIVE,
          EXPIRES,
          SessionRecord.State.ACTIVE,
          null,
          15,
          USE,
          List.of("conv-1"));

  @Test
  void withBackendSessionIdChangesOnlyTheBackendSessionId() {
    assertChanged(record.withBackendSessionId("conv-9"), Map.of("backendSessionId", "conv-9"));
  }

  @Test
  void afterTurnAddsTokensCountsTheTurnAndMovesTheTimes() {
    assertChanged(
        record.afterTurn(100, 20, 40, NOW, LATER),
        Map.of(
            "inputTokens", 111L,
            "outputTokens", 32L,
            "messageCount", 14L,
            "lastInjectedSequence", 40L,
            "lastActiveAt", NOW,
            "expiresAt", LATER));
  }

  @Test
  void afterTurnNeverMovesTheLastInjectedSequenceBack() {
    assertThat(record.afterTurn(0, 0, 3, NOW, LATER).lastInjectedSequence()).isEqualTo(14);
  }

  @Test
  void closedChangesOnlyTheStateAndTheReason() {
    assertChanged(
        record.closed("PROMPT_CHANGED"),
        Map.of("state", SessionRecord.State.CLOSED, "closeReason", "PROMPT_CHANGED"));
  }

  @Test
  void reopenedIsActiveWithoutAReasonAndWithNewTimes() {
    SessionRecord closed = record.closed("IDLE");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("state", SessionRecord.State.ACTIVE);
    expected.put("closeReason", null);
    expected.put("lastActiveAt", NOW);
    expected.put("expiresAt", LATER);
    assertChanged(closed.reopened(NOW, LATER), expected);
  }

  @Test
  void withRebuildsChangesOnlyTheCount() {
    assertChanged(record.withRebuilds(16), Map.of("rebuilds", 16L));
  }

  @Test
  void withContextChangesOnlyTheFiguresAndKeepsThemForNull() {
    ContextUse other = ContextUse.of(9_000, 200_000);
    assertChanged(record.withContext(other), Map.of("context", other));
    assertThat(record.withContext(null)).isSameAs(record);
    assertThat(record.withContext(USE)).isSameAs(record);
  }

  @Test
  void condensedStartsTheCountsAgainAndKeepsTheConversationItLeft() {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("backendSessionId", "conv-3");
    expected.put("inputTokens", 0L);
    expected.put("outputTokens", 0L);
    expected.put("context", null);
    expected.put("previousBackendSessionIds", List.of("conv-1", "conv-2"));
    assertChanged(record.condensed("conv-3"), expected);
  }

  @Test
  void condensingASessionWithoutABackendConversationAddsNoPreviousId() {
    assertThat(record.withBackendSessionId(null).condensed("conv-3").previousBackendSessionIds())
        .containsExactly("conv-1");
  }

  /** {@code changed} is {@link #record} with exactly {@code changes}, component by component. */
  private void assertChanged(SessionRecord changed, Map<String, Object> changes) {
    for (RecordComponent component : SessionRecord.class.getRecordComponents()) {
      String name = component.getName();
      Object expected = changes.containsKey(name) ? changes.get(name) : valueOf(record, component);
      assertThat(valueOf(changed, component)).as(name).isEqualTo(expected);
    }
  }

  private static Object valueOf(SessionRecord r, RecordComponent component) {
    try {
      return component.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
