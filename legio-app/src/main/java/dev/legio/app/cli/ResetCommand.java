package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.session.SessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
      // Every session the reset closes, and no other: for all, the agents' and the rows left by
      // agents removed from the castra (channels keep theirs).
      Set<String> owners = name.equals("all") ? app.engine().resetAllOwners() : Set.of(name);
      freeAbandonedLeases(app.sessions(), owners).forEach(root.out::println);
      String reset;
      try (WaitNotice waiting =
          WaitNotice.forTurnsOf(
              owners,
              app.sessions(),
              app.storeNow(),
              app.config().sessions().lockWait(),
              root.err)) {
        reset = dev.legio.app.text.OperatorReplies.reset(app.engine(), name);
      }
      root.out.println(reset);
      return 0;
    }
  }

  /**
   * Frees the leases on the sessions of {@code owners} (those the reset closes) whose holder is a
   * process of this host that has ended (killed mid-turn); says which it freed.
   */
  static List<String> freeAbandonedLeases(SessionStore sessions, Set<String> owners) {
    List<String> said = new ArrayList<>();
    for (String owner : new TreeSet<>(owners)) {
      sessions
          .releaseAbandonedLease(owner)
          .ifPresent(
              gone ->
                  said.add(
                      "Freed the lease on "
                          + owner
                          + "'s session: its holder ("
                          + gone
                          + ") is no longer running."));
    }
    return said;
  }
}
