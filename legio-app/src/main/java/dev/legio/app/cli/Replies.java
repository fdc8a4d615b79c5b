package dev.legio.app.cli;

import dev.legio.backend.BackendEvent;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import dev.legio.session.SessionEngine;
import java.io.PrintWriter;

/** How replies and progress are printed by {@code legio say} and {@code legio chat}. */
final class Replies {
  private Replies() {}

  /** Prints each reply under its attribution header. Returns the exit code the outcome deserves. */
  static int print(Outcome outcome, PrintWriter out, PrintWriter err) {
    if (outcome.refusal() != null) {
      err.println("legio: " + outcome.refusal());
      return LegioCommand.USAGE;
    }
    boolean first = true;
    for (Reply reply : outcome.replies()) {
      if (!first) {
        out.println();
      }
      first = false;
      out.println(SessionEngine.header(reply));
      out.println(MessageFormat.safeText(reply.text()));
    }
    out.flush();
    return outcome.ok() ? 0 : LegioCommand.FAILURE;
  }

  /** Prints status lines ({@code [vorenus] ⏳ Thinking...}) as agents report them. */
  static DispatchListener statusLines(PrintWriter err) {
    return (agent, event) -> {
      if (event instanceof BackendEvent.Status status) {
        synchronized (err) {
          err.println("[" + agent + "] " + MessageFormat.safeText(status.text()));
          err.flush();
        }
      }
    };
  }
}
