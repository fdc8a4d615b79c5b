package dev.legio.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceTest {
  @TempDir Path dir;

  @Test
  void castraOptionWinsOverLegioHomeWhichWinsOverTheCurrentDirectory() {
    Path option = dir.resolve("option");
    Path home = dir.resolve("home");
    Path cwd = dir.resolve("cwd");
    Map<String, String> env = Map.of("LEGIO_HOME", home.toString());

    assertThat(Workspace.locate(option, env, cwd).root()).isEqualTo(option);
    assertThat(Workspace.locate(null, env, cwd).root()).isEqualTo(home);
    assertThat(Workspace.locate(null, Map.of(), cwd).root()).isEqualTo(cwd);
  }

  @Test
  void initCreatesTheWorkspaceAndNeverOverwritesWhatIsThere() throws Exception {
    Workspace workspace = new Workspace(dir.resolve("legion"));
    assertThat(WorkspaceInitializer.initialise(workspace))
        .allMatch(WorkspaceInitializer.Outcome::created);

    for (String path :
        new String[] {
          "legio.toml",
          "castra/legatus/prompt.md",
          "castra/centuriones/vorenus/prompt.md",
          "castra/centuriones/pullo/prompt.md"
        }) {
      assertThat(workspace.root().resolve(path)).isRegularFile();
    }
    assertThat(workspace.root().resolve("castra/edicta")).isDirectory();
    assertThat(workspace.root().resolve("castra/acta")).isDirectory();
    assertThat(Files.readString(workspace.root().resolve("castra/centuriones/vorenus/prompt.md")))
        .startsWith("---\ndescription: ");

    Path prompt = workspace.root().resolve("castra/legatus/prompt.md");
    Files.writeString(prompt, "my own legatus");
    assertThat(WorkspaceInitializer.initialise(workspace))
        .noneMatch(WorkspaceInitializer.Outcome::created);
    assertThat(Files.readString(prompt)).isEqualTo("my own legatus");
    assertThat(workspace.requireInitialised()).isEqualTo(workspace);
  }

  @Test
  void initMakesTheLogsFolderTheOwnersOnlyAndTheRestWritableByItsOwnerOnly() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    Workspace workspace = new Workspace(dir.resolve("legion"));
    WorkspaceInitializer.initialise(workspace);
    assertThat(permissions(workspace.root().resolve("castra/logs"))).isEqualTo("rwx------");
    // The castra above it is made as its other folders are, not private by the way.
    assertThat(permissions(workspace.root().resolve("castra")))
        .isEqualTo(permissions(workspace.root().resolve("castra/edicta")))
        .isEqualTo("rwxr-xr-x");
  }

  private static String permissions(Path p) throws Exception {
    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void aFolderWithoutLegioTomlIsNotAWorkspaceAndTheErrorSaysWhatToDo() {
    assertThatThrownBy(() -> new Workspace(dir).requireInitialised())
        .isInstanceOf(WorkspaceException.class)
        .hasMessageContaining("no Legio workspace at " + dir)
        .hasMessageContaining("legio init");
  }

  @Test
  void aLegioTomlThatIsAFolderIsReportedAsAFolderNotAsMissing() throws Exception {
    Files.createDirectories(dir.resolve("legio.toml"));
    assertThatThrownBy(() -> new Workspace(dir).requireInitialised())
        .isInstanceOf(WorkspaceException.class)
        .hasMessageStartingWith(dir.resolve("legio.toml") + " is a folder, not a file")
        .hasMessageContaining("legio init " + dir)
        .hasMessageNotContaining("missing");
  }

  @Test
  void initRefusesAFolderWhereItsFileBelongsRatherThanCallingItKept() throws Exception {
    Files.createDirectories(dir.resolve("legio.toml"));
    assertThatThrownBy(() -> WorkspaceInitializer.initialise(new Workspace(dir)))
        .isInstanceOf(WorkspaceException.class)
        .hasMessageStartingWith(dir.resolve("legio.toml") + " is a folder where Legio keeps a file")
        .hasMessageContaining("move it away");
  }

  @Test
  void aLegioTomlLinkingToAMissingFileIsNamedWithItsTargetByCommandsAndByInit() throws Exception {
    Path target = dir.resolve("etc/legio.toml");
    Path ws = Files.createDirectories(dir.resolve("ws"));
    Files.createSymbolicLink(ws.resolve("legio.toml"), target);

    assertThatThrownBy(() -> new Workspace(ws).requireInitialised())
        .isInstanceOf(WorkspaceException.class)
        .hasMessageStartingWith(
            ws.resolve("legio.toml") + " is a link to " + target + ", which does not exist")
        .hasMessageContaining("remove the link")
        .hasMessageNotContaining("is missing");
    assertThatThrownBy(() -> WorkspaceInitializer.initialise(new Workspace(ws)))
        .isInstanceOf(WorkspaceException.class)
        .hasMessageStartingWith(
            ws.resolve("legio.toml") + " is a link to " + target + ", which does not exist");
    assertThat(target).doesNotExist();
  }
}
