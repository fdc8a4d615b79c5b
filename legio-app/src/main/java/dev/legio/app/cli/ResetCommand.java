package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.session.SessionEngine;
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
      freeAbandonedLeases(app.sessions(), app.engine(), name).forEach(root.out::println);
      String reset;
      try (WaitNotice waiting =
          WaitNotice.forTurnOf(
              name.equals("all") ? app.engine().knownAgents() : java.util.Set.of(name),
              app.sessions(),
              name.equals("all") ? "the agents' turns" : "a turn of " + name,
              app.config().sessions().lockWait(),
              root.err)) {
        reset = dev.legio.app.text.OperatorReplies.reset(app.engine(), name);
      }
      root.out.println(reset);
      return 0;
    }
  }

  /**
   * Frees the leases on {@code name}'s session (or every known one's, for {@code all}) whose holder
   * is a process of this host that has ended (killed mid-turn); says which it freed.
   */
  static List<String> freeAbandonedLeases(
      SessionStore sessions, SessionEngine engine, String name) {
    Set<String> owners = new TreeSet<>();
    if (name.equals("all")) {
      owners.addAll(engine.knownAgents());
      dev.legio.session.SessionListing listing = sessions.listing();
      listing.records().forEach(r -> owners.add(r.owner()));
      listing.damaged().forEach(d -> owners.add(d.owner()));
    } else {
      owners.add(name);
    }
    List<String> said = new ArrayList<>();
    for (String owner : owners) {
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
