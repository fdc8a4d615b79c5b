package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * No class is in two jars of the class path Legio runs with ({@code target/lib}, which holds this
 * module's runtime dependencies, as the tests' class path does): the JVM would load each from
 * whichever jar comes first, a mix of two versions of one library. Two versions of JLine did ship
 * so: the progress bar's {@code jline-terminal} and {@code jline-native} 3.24.1 beside the {@code
 * jline} bundle, which holds the same classes.
 */
class DuplicateClassesTest {
  /** The jars of the class path, but for the test jars of Legio's own modules. */
  private static List<Path> jars() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.endsWith(".jar") && !entry.endsWith("-tests.jar"))
        .map(Path::of)
        .toList();
  }

  @Test
  void noClassIsInTwoJars() throws IOException {
    List<Path> jars = jars();
    assertThat(jars).anyMatch(j -> j.getFileName().toString().startsWith("jline-"));

    Map<String, List<String>> jarsOfClass = new TreeMap<>();
    for (Path jar : jars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        zip.stream()
            .map(ZipEntry::getName)
            // META-INF/versions/ holds a multi-release jar's own variants of its classes
            .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
            .filter(n -> !n.endsWith("module-info.class"))
            .forEach(
                n ->
                    jarsOfClass
                        .computeIfAbsent(n, k -> new ArrayList<>())
                        .add(jar.getFileName().toString()));
      }
    }
    // One line per set of jars: the first class they share, and how many.
    Map<String, String> firstShared = new TreeMap<>();
    Map<String, Integer> shared = new TreeMap<>();
    jarsOfClass.forEach(
        (name, in) -> {
          if (in.size() > 1) {
            String which = String.join(" and ", in);
            firstShared.putIfAbsent(which, name);
            shared.merge(which, 1, Integer::sum);
          }
        });
    List<String> twice = new ArrayList<>();
    shared.forEach(
        (which, n) -> twice.add(which + ": " + n + " classes, " + firstShared.get(which) + "..."));
    assertThat(twice).as("jars holding the same classes").isEmpty();
  }
}
