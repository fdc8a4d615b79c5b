package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.server.SessionPages;
import dev.legio.app.server.SessionsCursor;
import dev.legio.app.text.ContextFigures;
import dev.legio.app.text.MessageFormat;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ContextWindows;
import dev.legio.config.Durations;
import dev.legio.errors.Quoted;
import dev.legio.session.DamagedSession;
import dev.legio.session.SessionListing;
import dev.legio.session.SessionRecord;
import dev.legio.transcript.Transcript;
import dev.legio.transcript.TranscriptContext;
import dev.legio.transcript.TranscriptEntry;
import dev.legio.transcript.TranscriptException;
import dev.legio.transcript.TranscriptInfo;
import dev.legio.transcript.TranscriptStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code legio sessions ...}: the sessions' transcripts. */
@Command(
    name = "sessions",
    mixinStandardHelpOptions = true,
    description = {
      "The sessions' transcripts (JSON Lines in Claude Code's format, under [transcripts] dir).",
      "A transcript in several parts (_part2, _part3, ...) is one session to every command."
    },
    subcommands = {
      SessionsCommand.ListSessions.class,
      SessionsCommand.Show.class,
      SessionsCommand.Remove.class,
      SessionsCommand.Prune.class,
      SessionEditCommands.Rewind.class,
      SessionEditCommands.Fork.class
    })
final class SessionsCommand implements Runnable {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  @ParentCommand LegioCommand root;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code 1.2 MB}, {@code 340 KB}, {@code 12 B}. */
  static String size(long bytes) {
    if (bytes >= 1_000_000) {
      return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
    if (bytes >= 1_000) {
      return String.format(Locale.ROOT, "%.1f KB", bytes / 1e3);
    }
    return bytes + " B";
  }

  static String time(Instant instant) {
    return instant == null ? "-" : TIME.format(instant);
  }

  /** One entry as a person reads it: time, role, then the text indented (cut after maxChars). */
  static void print(TranscriptEntry e, PrintWriter out, int maxChars) {
    StringBuilder head = new StringBuilder(time(e.timestamp())).append("  ").append(e.role());
    if (e.isSummary() && e.messagesCompacted() > 0) {
      head.append(" (replaces ").append(e.messagesCompacted()).append(" messages)");
    }
    out.println(head);
    String text = e.text();
    if (maxChars > 0 && text.length() > maxChars) {
      text = text.substring(0, maxChars) + "… (" + (text.length() - maxChars) + " more characters)";
    }
    for (String line : MessageFormat.safeText(text).split("\n", -1)) {
      out.println("    " + line);
    }
  }

  /** The transcript of {@code id}, or of the most recently changed session when id is empty. */
  static Transcript find(TranscriptStore store, String id) {
    if (id == null || id.isEmpty()) {
      List<TranscriptInfo> all = store.list();
      if (all.isEmpty()) {
        throw new IllegalArgumentException("there are no sessions with a transcript yet");
      }
      return store.load(all.get(0).sessionId());
    }
    return store.load(id);
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = {
        "The sessions, newest first by when each started (a session's place never moves): each"
            + " owner's current session and every other session with a transcript, a page at a"
            + " time, as GET /api/v1/sessions pages them. When more follow, the last line is the"
            + " command that lists the next page (More: legio sessions list --cursor ...), with"
            + " the --castra and --limit given, quoted for a POSIX shell.",
        "CONTEXT: how full its context was at its last answer, as a share of the model's window"
            + " (the session record's figure for a current session, else the usage in the"
            + " transcript's last answer); - when unknown. SIZE: - for a current session whose"
            + " first turn is not written yet.",
        "Then, on the first page, the session rows that could not be read as a record (damaged"
            + " session: ...), each with what is wrong and what to do, as `legio status` names"
            + " them."
      })
  static final class ListSessions implements Callable<Integer> {
    /** How many sessions a page lists unless {@code --limit} says. */
    static final int DEFAULT_LIMIT = 50;

    @ParentCommand SessionsCommand sessions;

    @Option(
        names = "--limit",
        paramLabel = "N",
        description =
            "How many sessions to list (default: "
                + DEFAULT_LIMIT
                + "; at most "
                + SessionPages.MAX_LIMIT
                + ").")
    Integer limit;

    @Option(
        names = "--cursor",
        paramLabel = "C",
        description =
            "Where the page before ended: the cursor its More: line gave (none: the newest).")
    String cursor;

    @Override
    public Integer call() {
      int size = limit == null ? DEFAULT_LIMIT : limit;
      if (size < 1 || size > SessionPages.MAX_LIMIT) {
        throw new IllegalArgumentException(
            "--limit must be at least 1 and at most "
                + SessionPages.MAX_LIMIT
                + " (the most a page lists, as GET /api/v1/sessions); its More: line lists the"
                + " rest");
      }
      SessionsCursor after = null;
      if (cursor != null) {
        after = SessionsCursor.parse(cursor);
        if (after == null) {
          throw new IllegalArgumentException(
              "--cursor '"
                  + Quoted.of(cursor)
                  + "' is not a cursor legio sessions list gave: pass the one its More: line"
                  + " names unchanged, or leave --cursor out for the newest sessions");
        }
      }
      PrintWriter out = sessions.root.out;
      PrintWriter err = sessions.root.err;
      try (LegioApp app = sessions.root.readingApp()) {
        SessionListing rows = sessionRows(app, err);
        SessionPages.Page page = SessionPages.page(rows, app.transcripts(), after, size);
        for (String skipped : page.skipped()) {
          err.println("legio: " + MessageFormat.safeText(skipped));
        }
        if (page.sessions().isEmpty()) {
          out.println(
              after != null
                  ? "No sessions after that cursor."
                  : page.skipped().isEmpty()
                      ? "No sessions yet."
                      : "No readable sessions (" + page.skipped().size() + " skipped).");
          printDamaged(page, out);
          return 0;
        }
        Map<String, ContextUse> live = liveContexts(rows);
        ContextWindows windows = ContextWindows.hosted(app.config().backend().contextWindows());
        String format = "%-36s  %-16s  %8s  %-20s  %-12s  %s%n";
        out.printf(Locale.ROOT, format, "ID", "OWNER", "MESSAGES", "CREATED", "CONTEXT", "SIZE");
        for (SessionPages.Listed listed : page.sessions()) {
          TranscriptInfo i = transcriptOf(listed, app.transcripts(), err);
          SessionRecord r = listed.record();
          String owner = r != null ? r.owner() : i.owner();
          out.printf(
              Locale.ROOT,
              format,
              listed.key().sessionId(),
              owner == null ? "-" : MessageFormat.safeText(owner),
              i != null ? i.messages() : r.messageCount(),
              time(listed.key().started()),
              ContextFigures.describe(
                  i != null ? context(i, live, windows) : live.get(listed.key().sessionId())),
              i == null
                  ? "-"
                  : size(i.bytes()) + (i.parts() > 1 ? " (" + i.parts() + " parts)" : ""));
        }
        printDamaged(page, out);
        if (page.next() != null) {
          out.println(MoreLine.of(sessions.root.castra, limit, page.next().encode()));
        }
        return 0;
      }
    }
  }

  /**
   * The transcript of a session on a page: an ended session's, as the page read it; a current
   * session's, read now (null when its first turn is not written yet, or, named on {@code err},
   * when it cannot be read).
   */
  private static TranscriptInfo transcriptOf(
      SessionPages.Listed listed, TranscriptStore transcripts, PrintWriter err) {
    if (listed.transcript() != null) {
      return listed.transcript();
    }
    try {
      return transcripts.info(listed.key().sessionId());
    } catch (TranscriptException e) {
      err.println(
          "legio: "
              + MessageFormat.safeText(
                  "the transcript of session "
                      + listed.key().sessionId()
                      + " cannot be read: "
                      + e.getMessage()));
      return null;
    }
  }

  /**
   * The session rows that could not be read as a record, one line each as {@code legio status}
   * names them ({@link SessionListing}): which row, what is wrong, what to do.
   */
  private static void printDamaged(SessionPages.Page page, PrintWriter out) {
    for (DamagedSession d : page.damaged()) {
      out.println("damaged session: " + MessageFormat.safeText(d.describe()));
    }
  }

  /**
   * A session's context use: its record's figure while it is its owner's current session (the
   * back-end's own count, against the window it reported), else the transcript's last answer's
   * usage against the window of its model ({@code [backend.context_windows]} first); null without
   * either.
   */
  static ContextUse context(
      TranscriptInfo info, Map<String, ContextUse> live, ContextWindows windows) {
    ContextUse current = live.get(info.sessionId());
    if (current != null) {
      return current;
    }
    TranscriptContext last = info.context();
    if (last == null) {
      return null;
    }
    return ContextUse.of(last.tokens(), windows.of(last.model() == null ? "" : last.model()));
  }

  /**
   * The session records and damaged rows of the store; none (and a line saying so) when the store
   * cannot be read, the listing then doing without them.
   */
  private static SessionListing sessionRows(LegioApp app, PrintWriter err) {
    try {
      return app.sessions().listing();
    } catch (RuntimeException e) {
      err.println(
          "legio: the session records could not be read ("
              + MessageFormat.safeText(String.valueOf(e.getMessage()))
              + "); CONTEXT shows the transcripts' own figures");
      return new SessionListing(List.of(), List.of());
    }
  }

  /** The context figures of the active sessions, by session id. */
  private static Map<String, ContextUse> liveContexts(SessionListing rows) {
    Map<String, ContextUse> live = new HashMap<>();
    for (SessionRecord r : rows.records()) {
      if (r.active() && r.context() != null) {
        live.put(r.sessionId().toString(), r.context());
      }
    }
    return live;
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "A session's transcript: every message and summary, oldest first.")
  static final class Show implements Callable<Integer> {
    @ParentCommand SessionsCommand sessions;

    @Parameters(paramLabel = "ID", description = "The session id (see `legio sessions list`).")
    String id;

    @Option(names = "--tail", paramLabel = "N", description = "Only the last N entries.")
    Integer tail;

    @Override
    public Integer call() {
      PrintWriter out = sessions.root.out;
      try (LegioApp app = sessions.root.readingApp()) {
        Transcript t = app.transcripts().load(id);
        List<TranscriptEntry> entries = t.entries();
        if (tail != null) {
          if (tail < 1) {
            throw new IllegalArgumentException("--tail must be at least 1");
          }
          entries = entries.subList(Math.max(0, entries.size() - tail), entries.size());
        }
        out.println(
            "Session "
                + t.sessionId()
                + (t.owner() == null ? "" : " of " + MessageFormat.safeText(t.owner()))
                + ": "
                + t.entries().size()
                + " messages in "
                + t.report().parts()
                + " part(s), "
                + size(t.report().bytes()));
        backEndSessions(app, t.sessionId()).ifPresent(out::println);
        for (TranscriptEntry e : entries) {
          print(e, out, 0);
        }
        if (t.report().hasProblems()) {
          sessions.root.err.println("legio: " + t.report().problems());
        }
        return 0;
      }
    }
  }

  /**
   * The back-end sessions of the session {@code id}, when the store holds its record: {@code
   * Back-end session: B (condensed from A1, A2)}; empty when it holds none or cannot be read.
   */
  static java.util.Optional<String> backEndSessions(LegioApp app, String id) {
    try {
      for (SessionRecord r : app.sessions().list()) {
        if (r.sessionId().toString().equals(id) && r.backendSessionId() != null) {
          List<String> previous = r.previousBackendSessionIds();
          return java.util.Optional.of(
              "Back-end session: "
                  + MessageFormat.safeText(r.backendSessionId())
                  + (previous.isEmpty()
                      ? ""
                      : " (condensed from "
                          + MessageFormat.safeText(String.join(", ", previous))
                          + ")"));
        }
      }
    } catch (RuntimeException e) {
      // The transcript is shown without them.
    }
    return java.util.Optional.empty();
  }

  @Command(
      name = "rm",
      mixinStandardHelpOptions = true,
      description = "Delete a session's transcript, all its parts.")
  static final class Remove implements Callable<Integer> {
    @ParentCommand SessionsCommand sessions;

    @Parameters(paramLabel = "ID", description = "The session id (see `legio sessions list`).")
    String id;

    @Override
    public Integer call() {
      try (LegioApp app = sessions.root.app()) {
        int parts = app.transcripts().delete(id);
        if (parts == 0) {
          sessions.root.err.println("legio: no transcript for session " + id);
          return LegioCommand.USAGE;
        }
        sessions.root.out.println(
            "Deleted session " + id + " (" + parts + (parts == 1 ? " part)" : " parts)"));
        return 0;
      }
    }
  }

  @Command(
      name = "prune",
      mixinStandardHelpOptions = true,
      description = "Delete the transcripts of sessions unchanged for longer than an age.")
  static final class Prune implements Callable<Integer> {
    @ParentCommand SessionsCommand sessions;

    @Option(
        names = "--older-than",
        required = true,
        paramLabel = "AGE",
        description = "An age: 30d, 12h, 45m, or ISO-8601 (P30D).")
    String olderThan;

    @Override
    public Integer call() {
      Duration age = Durations.parse(olderThan);
      try (LegioApp app = sessions.root.app()) {
        Instant cutoff = Durations.before(sessions.root.context.clock().instant(), age);
        List<TranscriptInfo> removed = app.transcripts().prune(cutoff);
        long bytes = removed.stream().mapToLong(TranscriptInfo::bytes).sum();
        sessions.root.out.println(
            "Deleted "
                + removed.size()
                + (removed.size() == 1 ? " session" : " sessions")
                + " unchanged since "
                + time(cutoff)
                + " ("
                + size(bytes)
                + ").");
        return 0;
      }
    }
  }
}
