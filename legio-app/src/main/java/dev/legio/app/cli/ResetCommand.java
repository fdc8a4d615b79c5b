package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "reset",
    mixinStandardHelpOptions = true,
    description = {
      "Close an agent's session: its next request starts a fresh one, with the recent history and"
          + " a context notice.",
      "Works across processes: a running `legio serve` sees the reset at the agent's next request."
    })
final class ResetCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Parameters(
      paramLabel = "NAME",
      description = "An agent (legatus, vorenus, ...), a channel (telegram:123), or `all`.")
  String name;

  @Override
  public Integer call() {
    try (LegioApp app = root.app()) {
      if (name.equals("all")) {
        List<String> closed = app.engine().resetAll();
        root.out.println(
            closed.isEmpty()
                ? "No active sessions to reset."
                : "Reset: " + String.join(", ", closed) + ".");
      } else if (app.engine().reset(name)) {
        root.out.println("Reset " + name + ": its next request starts a fresh session.");
      } else {
        root.out.println(name + " has no active session; nothing to reset.");
      }
      return 0;
    }
  }
}
