package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionRetentionTest {
  static final long HOUR = Duration.ofHours(1).toNanos();

  private static HttpSession idleSince(long at) {
    return new HttpSession(null, at);
  }

  @Test
  void sessionsIdlePastTheLimitEndTheJustOpenedAndThoseInUseNever() {
    SessionRetention retention = new SessionRetention(Duration.ofHours(1), 100);
    Map<String, HttpSession> sessions = new LinkedHashMap<>();
    sessions.put("old", idleSince(0));
    sessions.put("recent", idleSince(HOUR));
    HttpSession busy = idleSince(0);
    assertThat(busy.enter()).isTrue();
    sessions.put("busy", busy);
    sessions.put("opened", idleSince(0)); // as if its clock were off: kept all the same

    assertThat(retention.toEnd(sessions, "opened", HOUR + HOUR / 2)).containsExactly("old");
    busy.leave(HOUR + 1); // idle from then on
    assertThat(retention.toEnd(sessions, "opened", 2 * HOUR + 2))
        .containsExactly("old", "recent", "busy");
  }

  @Test
  void pastTheCountTheLongestIdleEndFirst() {
    SessionRetention retention = new SessionRetention(Duration.ofHours(24), 2);
    Map<String, HttpSession> sessions = new LinkedHashMap<>();
    sessions.put("c", idleSince(30));
    sessions.put("a", idleSince(10));
    sessions.put("b", idleSince(20));
    sessions.put("new", idleSince(40));
    assertThat(retention.toEnd(sessions, "new", 50)).containsExactly("a", "b");
  }

  @Test
  void aSessionEndedIsNotEnteredAgainAndOneInUseIsNotEnded() {
    HttpSession session = idleSince(0);
    assertThat(session.enter()).isTrue();
    assertThat(session.inUse()).isTrue();
    session.leave(5);
    assertThat(session.idleSince()).isEqualTo(5);
    assertThat(session.enter()).isTrue();
    assertThat(session.closeIfIdle()).isFalse();
    session.leave(6);
    assertThat(session.closeIfIdle()).isTrue(); // (no SDK session here: its delete is skipped)
    assertThat(session.enter()).isFalse();
    assertThat(session.closeIfIdle()).isFalse();
  }
}
