package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.TurnResult;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link IdleReaper}: which of the sessions this process holds are closed, on a moved clock. */
class IdleReaperTest {
  private static final Instant LAST_ACTIVE = Instant.parse("2026-11-21T09:00:00Z");
  private static final Duration TIMEOUT = Duration.ofMinutes(30);

  @ParameterizedTest(name = "{0}, {1} min later: closed {2}")
  @CsvSource({
    // slot state, minutes since its last activity, closed
    "live,        31, true",
    "live,        30, false",
    "live,        0,  false",
    "no-live,     31, false",
    "no-record,   31, false",
    "busy,        31, false",
    "live-failing,31, false",
  })
  void aSessionIsClosedOnlyWhenLiveFreeAndIdlePastTheTimeout(
      String state, int minutes, boolean closed) {
    MutableClock clock = new MutableClock(LAST_ACTIVE.plus(Duration.ofMinutes(minutes)));
    List<String> closedOwners = new ArrayList<>();
    IdleReaper reaper =
        new IdleReaper(
            clock,
            slot -> {
              if (slot.name().equals("failing")) {
                throw new IllegalStateException("the store is gone");
              }
              closedOwners.add(slot.name());
              return true;
            });
    OwnerSlot slot = slot(state.equals("live-failing") ? "failing" : "vorenus");
    if (state.equals("no-live")) {
      slot.live = null;
    }
    if (state.equals("no-record")) {
      slot.record = null;
    }
    if (state.equals("busy")) {
      slot.queue.enqueue(); // a turn queued, not yet run
    }
    OwnerSlot other = slot("pullo"); // idle long past any case: always reaped
    other.record = record("pullo", LAST_ACTIVE.minus(Duration.ofDays(1)));

    int count = reaper.reap(List.of(slot, other), TIMEOUT);

    assertThat(closedOwners).isEqualTo(closed ? List.of("vorenus", "pullo") : List.of("pullo"));
    assertThat(count).isEqualTo(closedOwners.size());
    assertThat(slot.queue.idle()).isEqualTo(!state.equals("busy"));
  }

  @ParameterizedTest(name = "closer says {0}")
  @CsvSource({"true, 1", "false, 0"})
  void onlySessionsTheCloserReallyClosedAreCounted(boolean closerClosed, int counted) {
    MutableClock clock = new MutableClock(LAST_ACTIVE.plus(Duration.ofHours(1)));
    IdleReaper reaper = new IdleReaper(clock, slot -> closerClosed);
    assertThat(reaper.reap(List.of(slot("vorenus")), TIMEOUT)).isEqualTo(counted);
  }

  private static OwnerSlot slot(String owner) {
    OwnerSlot slot = new OwnerSlot(Owner.of(owner));
    slot.live = new IdleSession();
    slot.record = record(owner, LAST_ACTIVE);
    return slot;
  }

  private static SessionRecord record(String owner, Instant lastActive) {
    return new SessionRecord(
        owner,
        UUID.randomUUID(),
        "scripted",
        null,
        "p",
        null,
        0,
        0,
        1,
        0,
        lastActive,
        lastActive,
        lastActive.plus(Duration.ofDays(30)),
        SessionRecord.State.ACTIVE,
        null,
        0);
  }

  /** A live session the reaper never talks to. */
  private static final class IdleSession implements BackendSession {
    @Override
    public String backendSessionId() {
      return null;
    }

    @Override
    public boolean resumed() {
      return false;
    }

    @Override
    public TurnResult send(String userMessage, Consumer<BackendEvent> events) {
      throw new AssertionError("the reaper sends nothing");
    }

    @Override
    public void close() {}
  }
}
