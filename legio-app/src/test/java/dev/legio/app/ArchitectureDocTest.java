package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The table of modules and packages in docs/ARCHITECTURE.md gives each package one row: a package
 * described twice leaves a reader to guess which row is true.
 */
class ArchitectureDocTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** A row of the table: its module cell (blank under the first) and its package cell. */
  private static final Pattern ROW = Pattern.compile("^\\| [^|]*\\| `(dev\\.legio[^`]*)` \\|");

  @Test
  void eachPackageHasOneRow() throws Exception {
    List<String> packages = new ArrayList<>();
    for (String line : Files.readAllLines(ROOT.resolve("docs/ARCHITECTURE.md"))) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        packages.add(m.group(1));
      }
    }

    assertThat(packages).contains("dev.legio.transcript", "dev.legio.store");
    Map<String, Long> rows =
        packages.stream()
            .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    assertThat(rows).allSatisfy((name, count) -> assertThat(count).as(name).isOne());
  }
}
