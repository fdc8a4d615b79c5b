package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link SessionMaintenance}: runs the tasks it is handed; knows none itself. */
class SessionMaintenanceTest {

  @ParameterizedTest(name = "failing: {0}")
  @CsvSource(
      nullValues = "-",
      value = {"-, a b c", "a, b c", "b, a c", "c, a b"})
  void theDailyTasksRunInOrderAndAFailingOneDoesNotStopTheNext(String failing, String ran) {
    List<String> done = new ArrayList<>();
    SessionMaintenance.Tasks tasks = new SessionMaintenance.Tasks();
    for (String name : List.of("a", "b", "c")) {
      tasks.daily(
          name,
          () -> {
            if (name.equals(failing)) {
              throw new IllegalStateException(name + " failed");
            }
            done.add(name);
          });
    }
    try (SessionMaintenance maintenance =
        tasks.build(MutableClock.at("2026-11-21T09:00:00Z"), LocalTime.of(2, 0))) {
      maintenance.dailyCleanup();
      maintenance.dailyCleanup();
    }
    List<String> once = List.of(ran.split(" "));
    List<String> twice = new ArrayList<>(once);
    twice.addAll(once);
    assertThat(done).isEqualTo(twice);
  }

  @ParameterizedTest(name = "{0} to {1}: {2}")
  @CsvSource({
    "2026-11-21T01:00:00Z, 02:00, PT1H",
    "2026-11-21T02:00:00Z, 02:00, PT24H",
    "2026-11-21T02:00:01Z, 02:00, PT23H59M59S",
    "2026-11-21T23:30:00Z, 00:15, PT45M",
  })
  void theDailyRunIsAtTheNextTimeOfDayInUtc(Instant now, LocalTime at, Duration expected) {
    assertThat(SessionMaintenance.untilNext(now, at)).isEqualTo(expected);
  }

  @Test
  void itKeepsTheTasksItWasHandedInOrder() {
    Runnable nothing = () -> {};
    try (SessionMaintenance m =
        new SessionMaintenance.Tasks()
            .every("idle reaper", Duration.ofSeconds(60), nothing)
            .every("channel cleanup", Duration.ofMinutes(5), nothing)
            .daily("records", nothing)
            .build(MutableClock.at("2026-11-21T09:00:00Z"), LocalTime.of(2, 0))) {
      assertThat(m.periodic())
          .extracting(SessionMaintenance.Periodic::name, SessionMaintenance.Periodic::interval)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("idle reaper", Duration.ofSeconds(60)),
              org.assertj.core.groups.Tuple.tuple("channel cleanup", Duration.ofMinutes(5)));
      assertThat(m.daily()).extracting(SessionMaintenance.Daily::name).containsExactly("records");
    }
    assertThatThrownBy(() -> new SessionMaintenance.Periodic("reaper", Duration.ZERO, nothing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reaper")
        .hasMessageContaining("positive");
  }
}
