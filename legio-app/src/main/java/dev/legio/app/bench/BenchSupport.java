package dev.legio.app.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/** What the benchmarks share: percentiles, number formatting, clean-up. */
final class BenchSupport {
  private BenchSupport() {}

  /** The {@code p}th percentile of durations in nanoseconds, in milliseconds (nearest rank). */
  static double percentileMillis(long[] nanos, int p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }

  /** Three decimals below 100, none above. */
  static String fmt(double value) {
    return value >= 100
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.3f", value);
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
