package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.MessageFormat;
import dev.legio.transcript.SessionHistoryEditor;
import java.io.PrintWriter;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code legio sessions rewind} and {@code legio sessions fork}: {@link SessionHistoryEditor}. */
final class SessionEditCommands {
  private SessionEditCommands() {}

  /** What a rewind or fork did, as a person reads it. */
  static void report(String what, SessionHistoryEditor.Result r, PrintWriter out) {
    out.println(
        what
            + ": session "
            + r.sessionId()
            + " of "
            + MessageFormat.safeText(String.valueOf(r.owner()))
            + " continues from the point ("
            + r.entriesRemoved()
            + " entries, "
            + r.turnsRemoved()
            + " turns after it left out"
            + (r.backendSessionId() == null
                ? "; the back-end keeps no conversation Legio can cut, so the next turn starts"
                    + " afresh from the praetorium)."
                : "; the back-end continues conversation " + r.backendSessionId() + ")."));
  }

  @Command(
      name = "rewind",
      mixinStandardHelpOptions = true,
      description =
          "Take a session back to an earlier point: later transcript entries are tombstoned and"
              + " the session's next turn continues from there.")
  static final class Rewind implements Callable<Integer> {
    @ParentCommand SessionsCommand sessions;

    @Parameters(paramLabel = "ID", description = "The session id (see `legio sessions list`).")
    String id;

    @ArgGroup(multiplicity = "1")
    Where where;

    static final class Where {
      @Option(
          names = "--to",
          paramLabel = "ENTRY_UUID",
          description = "Keep up to this entry (see `legio sessions show ID --json`).")
      UUID to;

      @Option(names = "--last", paramLabel = "N", description = "Take back the last N turns.")
      Integer last;
    }

    @Override
    public Integer call() {
      SessionHistoryEditor.Point point =
          where.to != null
              ? new SessionHistoryEditor.Point.AtEntry(where.to)
              : new SessionHistoryEditor.Point.LastTurns(where.last);
      try (LegioApp app = sessions.root.app()) {
        SessionHistoryEditor.Result rewound;
        try (WaitNotice waiting = waiting(app, id, null, sessions.root.err)) {
          rewound = app.historyEditor().rewind(id, point);
        }
        report("Rewound", rewound, sessions.root.out);
        return 0;
      } catch (IllegalArgumentException e) {
        sessions.root.err.println("legio: " + e.getMessage());
        return LegioCommand.USAGE;
      }
    }
  }

  @Command(
      name = "fork",
      mixinStandardHelpOptions = true,
      description =
          "Start a new session that continues from a point of this one; the original stays as"
              + " it was.")
  static final class Fork implements Callable<Integer> {
    @ParentCommand SessionsCommand sessions;

    @Parameters(paramLabel = "ID", description = "The session id (see `legio sessions list`).")
    String id;

    @Option(names = "--at", paramLabel = "ENTRY_UUID", description = "Fork after this entry.")
    UUID at;

    @Option(
        names = "--owner",
        paramLabel = "NAME",
        description = "Whose session the fork becomes (default: the original's owner).")
    String owner;

    @Override
    public Integer call() {
      SessionHistoryEditor.Point point =
          at == null
              ? new SessionHistoryEditor.Point.End()
              : new SessionHistoryEditor.Point.AtEntry(at);
      try (LegioApp app = sessions.root.app()) {
        SessionHistoryEditor.Result forked;
        try (WaitNotice waiting = waiting(app, id, owner, sessions.root.err)) {
          forked = app.historyEditor().fork(id, point, owner);
        }
        report("Forked", forked, sessions.root.out);
        return 0;
      } catch (IllegalArgumentException e) {
        sessions.root.err.println("legio: " + e.getMessage());
        return LegioCommand.USAGE;
      }
    }
  }

  /**
   * The notice an edit of session {@code id} (onto {@code owner}; null: the session's own) gives
   * while it waits for a turn: none when no turn of that owner runs as it begins.
   */
  private static WaitNotice waiting(
      LegioApp app, String id, String owner, java.io.PrintWriter err) {
    java.util.Set<String> owners =
        owner != null
            ? java.util.Set.of(owner)
            : app.sessions().list().stream()
                .filter(r -> r.sessionId().toString().equals(id))
                .map(dev.legio.session.SessionRecord::owner)
                .collect(java.util.stream.Collectors.toSet());
    return WaitNotice.forTurnOf(
        owners,
        app.sessions(),
        app.storeNow(),
        owner != null ? "a turn of " + owner : "a turn of session " + id + "'s owner",
        app.config().sessions().lockWait(),
        err);
  }
}
