package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.legio.config.EnginePriority;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A small {@code legio bench api}: a real server on a free loopback port, the offline model, two
 * clients. Checks that every request succeeds and that the figures are there and consistent (the
 * speed itself is docs/BENCHMARKS.md's business, never a test's).
 */
class ApiBenchmarkTest {
  @Test
  void twoClientsGetEveryAnswerAndTheFiguresAddUp() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    new ApiBenchmark(
            // The test JVM's carriers keep their priority (lowering lasts for the process).
            new ApiBenchmark.Settings(
                2, 40, Duration.ZERO, Duration.ofSeconds(1), EnginePriority.EQUAL, true),
            new PrintWriter(out, true),
            new PrintWriter(err, true))
        .run();
    Instant after = Instant.now();

    Map<String, Instant> window = new LinkedHashMap<>();
    Map<String, Double> figures = new LinkedHashMap<>();
    out.toString()
        .lines()
        .map(l -> l.split("=", 2))
        .filter(kv -> !kv[0].equals("jit_settled") && !kv[0].equals("engine_priority"))
        .forEach(
            kv -> {
              if (kv[0].startsWith("measured_")) {
                window.put(kv[0], Instant.parse(kv[1]));
              } else {
                figures.put(kv[0], Double.parseDouble(kv[1]));
              }
            });
    assertThat(figures)
        .as(out + "\n" + err)
        .containsEntry("clients", 2.0)
        .containsEntry("requests", 40.0)
        .containsEntry("failed_requests", 0.0)
        .containsKeys(
            "api_turn_p50_ms",
            "api_turn_p99_ms",
            "api_overhead_p50_ms",
            "api_overhead_p99_ms",
            "api_handler_overhead_p99_ms",
            "requests_per_second",
            "warm_up_seconds",
            "jit_ms_while_measured");
    // The overhead is part of the turn's time, and the engine's time came back in Server-Timing.
    assertThat(figures.get("api_overhead_p50_ms")).isLessThan(figures.get("api_turn_p50_ms"));
    assertThat(figures.get("requests_per_second")).isPositive();
    // The measured window on the wall clock, as long as the requests a second say.
    Instant from = window.get("measured_from");
    Instant to = window.get("measured_to");
    assertThat(from).isBetween(before, to);
    assertThat(to).isBeforeOrEqualTo(after);
    double seconds = 40 / figures.get("requests_per_second");
    // (requests a second are printed whole above 100: up to 0.5% off; both ends in whole ms)
    assertThat(Duration.between(from, to).toNanos() / 1e9)
        .isCloseTo(seconds, within(seconds * 0.006 + 0.0025));
    // Beside the figures, how busy other processes kept the machine (where Linux's /proc says).
    if (OtherProcessesCpu.read() != null) {
      assertThat(figures.get("others_cpu_percent")).isBetween(0.0, 100.0);
    }
    // With the probe asked for: how late a thread that only sleeps woke in the window (40 turns
    // take several of its 1 ms sleeps).
    assertThat(figures).containsKeys("wake_up_lateness_p50_ms", "wake_up_lateness_p99_ms");
    assertThat(figures.get("wake_up_lateness_p50_ms"))
        .isBetween(0.0, figures.get("wake_up_lateness_p99_ms"));
  }

  @Test
  void aRunSmallerThanItsClientsIsRefusedWithWhatToChange() {
    assertThatThrownBy(
            () ->
                new ApiBenchmark.Settings(
                    32, 10, Duration.ofSeconds(60), EnginePriority.LOWERED, false))
        .hasMessage("--requests must be at least --clients (32), got 10");
  }
}
