package dev.legio.app.cli;

import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    description = {
      "Create a workspace: legio.toml (every key documented), the legatus's prompt, two example"
          + " agents (vorenus, pullo), and the edicta and acta folders.",
      "Existing files are kept as they are."
    })
final class InitCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "DIR",
      description = "Where to create it (default: the selected workspace).")
  Path dir;

  @Override
  public Integer call() {
    Workspace workspace =
        dir == null
            ? root.workspace()
            : new Workspace(root.context.currentDirectory().resolve(dir));
    List<WorkspaceInitializer.Outcome> outcomes = WorkspaceInitializer.initialise(workspace);
    for (WorkspaceInitializer.Outcome outcome : outcomes) {
      root.out.printf(
          "  %-8s %s%n",
          outcome.created() ? "created" : "kept", workspace.root().relativize(outcome.path()));
    }
    root.out.printf("Workspace ready at %s%n", workspace.root());
    return 0;
  }
}
