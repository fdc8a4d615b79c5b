package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.task.TaskSessionSummary;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java example of task sessions is {@link TaskSessionsExample}'s code, word for word,
 * and it runs: compiled by the build, run here on a fresh workspace with the offline model.
 */
class ReadmeTaskExampleTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;

  /** The lines between the markers, without their common indentation. */
  static String exampleInSource() throws Exception {
    String source =
        Files.readString(
            ROOT.resolve("legio-app/src/test/java/dev/legio/app/TaskSessionsExample.java"));
    Matcher m =
        Pattern.compile(
                "// README example begins\\n(.*?)\\n\\s*// README example ends", Pattern.DOTALL)
            .matcher(source);
    assertThat(m.find()).as("markers in TaskSessionsExample.java").isTrue();
    return m.group(1).stripIndent().strip();
  }

  /** The README's java block that opens with {@code try (Legio legio}. */
  static String exampleInReadme() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher m =
        Pattern.compile("```java\\n(try \\(Legio legio.*?)\\n```", Pattern.DOTALL).matcher(readme);
    assertThat(m.find()).as("a ```java block with the example in README.md").isTrue();
    return m.group(1).strip();
  }

  @Test
  void theReadmeQuotesTheExampleWordForWord() throws Exception {
    assertThat(exampleInReadme()).isEqualTo(exampleInSource());
  }

  @Test
  void theExampleRunsAndItsSecondTaskResumesTheFirstsSession() throws Exception {
    Path castra = dir.resolve("castra");
    Workspace workspace = new Workspace(castra);
    WorkspaceInitializer.initialise(workspace);
    Path toml = workspace.configFile();
    Files.writeString(
        toml, Files.readString(toml).replace("kind = \"auto\"", "kind = \"offline\""));
    Path prompt = workspace.castra().resolve("centuriones/copywriter/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: Writes copy.\n---\nYou write copy.\n");

    TaskSessionsExample.run(castra);

    try (Legio legio = Legio.open(castra, Map.of(), Clock.systemUTC())) {
      List<TaskSessionSummary> sessions = legio.tasks().sessions("campaign:7f3c");
      assertThat(sessions).hasSize(1);
      assertThat(sessions.get(0).agent()).isEqualTo("copywriter");
      assertThat(sessions.get(0).totals().total().turns()).isEqualTo(2);
    }
  }
}
