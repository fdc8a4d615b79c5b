package dev.legio.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A Legio workspace: a folder holding {@code legio.toml} and the {@code castra/} tree (prompts,
 * edicta, acta, the message log database and the log file).
 *
 * <pre>
 * legio.toml
 * castra/legatus/prompt.md
 * castra/centuriones/NAME/prompt.md
 * castra/edicta/   castra/acta/
 * castra/praetorium.db   castra/logs/legio.log
 * </pre>
 *
 * <p>Rule: a folder is a workspace when its {@code legio.toml} is a file. A {@code legio.toml} that
 * is a folder is reported as such (not as missing), with what to do about it; so is one that is a
 * link to a missing file (a configuration not yet deployed, a volume not mounted), naming the link
 * and its target.
 */
public record Workspace(Path root) {
  public static final String CONFIG_FILE = "legio.toml";

  public Workspace {
    root = root.toAbsolutePath().normalize();
  }

  /**
   * The workspace to use: {@code --castra DIR} when given, else {@code LEGIO_HOME}, else the
   * current directory.
   */
  public static Workspace locate(
      Path castraOption, Map<String, String> env, Path currentDirectory) {
    if (castraOption != null) {
      return new Workspace(castraOption);
    }
    String home = env.get("LEGIO_HOME");
    if (home != null && !home.isBlank()) {
      return new Workspace(Path.of(home));
    }
    return new Workspace(currentDirectory);
  }

  public Path configFile() {
    return root.resolve(CONFIG_FILE);
  }

  public Path castra() {
    return root.resolve("castra");
  }

  public boolean isInitialised() {
    return Files.isRegularFile(configFile());
  }

  /** Throws a {@link WorkspaceException} that says how to create one unless this is one. */
  public Workspace requireInitialised() {
    if (Files.isDirectory(configFile())) {
      throw new WorkspaceException(
          configFile()
              + " is a folder, not a file: Legio reads its configuration from that file. Move the"
              + " folder away, then run `legio init "
              + root
              + "` to write a fresh "
              + CONFIG_FILE
              + " (it keeps the files already there), or choose another workspace with --castra"
              + " DIR or LEGIO_HOME.");
    }
    String broken = brokenLink(configFile());
    if (broken != null) {
      throw new WorkspaceException(
          broken
              + ": create or restore the target (deploy it, mount its volume), or remove the link"
              + " and run `legio init "
              + root
              + "` to write a fresh "
              + CONFIG_FILE
              + " in its place.");
    }
    if (!isInitialised()) {
      throw new WorkspaceException(
          "no Legio workspace at "
              + root
              + " ("
              + CONFIG_FILE
              + " is missing). Create one with `legio init "
              + root
              + "`, or choose an existing one with --castra DIR or LEGIO_HOME.");
    }
    return this;
  }

  /**
   * {@code "PATH is a link to TARGET, which does not exist"} when {@code path} is a symbolic link
   * that leads to nothing (a missing target, or links that loop); null otherwise.
   */
  static String brokenLink(Path path) {
    if (!Files.isSymbolicLink(path) || Files.exists(path)) {
      return null;
    }
    String target;
    try {
      target = path.resolveSibling(Files.readSymbolicLink(path)).normalize().toString();
    } catch (java.io.IOException e) {
      target = "a target that cannot be read";
    }
    return path
        + " is a link to "
        + target
        + (Files.isSymbolicLink(Path.of(target))
            ? ", a link that leads to no file (missing, or links that loop)"
            : ", which does not exist");
  }
}
