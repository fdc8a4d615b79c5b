package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio init} in a castra whose agent folder is a symbolic link to a folder elsewhere: it
 * writes nothing through the link, and says which link and what to do; what the folder holds
 * already is kept.
 */
class InitCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();

  private CliResult legio(String... args) {
    return CliResult.run(env, dir, Clock.systemUTC(), args);
  }

  @Test
  void anAgentFolderLinkedOutOfTheCastraIsRefusedAndNothingIsWritten() throws Exception {
    Path shared = Files.createDirectories(dir.resolve("elsewhere/vorenus-shared"));
    Path agents = Files.createDirectories(dir.resolve("legion/castra/centuriones"));
    Path link = Files.createSymbolicLink(agents.resolve("vorenus"), shared);

    CliResult init = legio("init", "legion");

    assertThat(init.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(init.err())
        .isEqualTo(
            "legio: legio init writes nothing outside the workspace through a link: "
                + link
                + " is a link to "
                + shared.toRealPath()
                + ", where it would create "
                + shared.toRealPath().resolve("prompt.md")
                + ". Create that there yourself if it is meant to live there, or replace the link"
                + " with a folder (or point it inside the workspace) and run legio init again;"
                + " nothing was written.\n");
    try (Stream<Path> there = Files.list(shared)) {
      assertThat(there).isEmpty();
    }
    assertThat(dir.resolve("legion/legio.toml")).doesNotExist();
    assertThat(dir.resolve("legion/castra/legatus")).doesNotExist();
  }

  @Test
  void aLinkedAgentFolderThatHoldsItsPromptIsKeptAsItIs() throws Exception {
    Path shared = Files.createDirectories(dir.resolve("elsewhere/vorenus-shared"));
    Files.writeString(shared.resolve("prompt.md"), "the shared vorenus");
    Path agents = Files.createDirectories(dir.resolve("legion/castra/centuriones"));
    Files.createSymbolicLink(agents.resolve("vorenus"), shared);

    CliResult init = legio("init", "legion");

    assertThat(init.code()).as(init.err()).isZero();
    assertThat(init.out())
        .contains("  kept     castra/centuriones/vorenus/prompt.md")
        .contains("  created  castra/centuriones/pullo/prompt.md");
    assertThat(Files.readString(shared.resolve("prompt.md"))).isEqualTo("the shared vorenus");
    try (Stream<Path> there = Files.list(shared)) {
      assertThat(there).containsExactly(shared.resolve("prompt.md"));
    }
  }

  @Test
  void aLinkToAnotherFolderOfTheWorkspaceIsFollowedAsAnyFolder() throws Exception {
    Path agents = Files.createDirectories(dir.resolve("legion/castra/centuriones"));
    Path inside = Files.createDirectories(dir.resolve("legion/agents/vorenus"));
    Files.createSymbolicLink(agents.resolve("vorenus"), inside);

    CliResult init = legio("init", "legion");

    assertThat(init.code()).as(init.err()).isZero();
    assertThat(inside.resolve("prompt.md")).isRegularFile();
  }
}
