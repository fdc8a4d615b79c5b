package dev.legio.app.text;

import dev.legio.backend.ContextUse;
import dev.legio.session.ChannelListing;
import dev.legio.session.DamagedSession;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStatus;
import dev.legio.session.StatusReport;
import dev.legio.usage.UsageTotal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The table {@code legio status} and {@code /status} print: one line per agent and channel listed
 * ({@link ChannelListing}: by default the open ones), with each active session's context use as a
 * share of its model's window ({@code 42% of 200K}); then a line for each session whose
 * auto-compact is off after failures, and one for each active session that was condensed (how
 * often, and its latest earlier back-end sessions); then the prompt files' problems, one line for
 * each session row that could not be read as a record ({@code damaged session: ...}, naming it,
 * what is wrong and what to do; its owner's SESSION is {@code damaged}), and how many channels were
 * left out.
 */
public final class StatusTable {
  private static final String[] HEADINGS = {
    "AGENT",
    "STATUS",
    "SESSION",
    "AGE",
    "INPUT TOKENS",
    "CONTEXT",
    "MESSAGES",
    "REBUILDS",
    "BACKEND"
  };

  private StatusTable() {}

  public static String format(StatusReport report, List<String> problems) {
    return format(report, problems, null);
  }

  /**
   * {@code 12 of 3,400 channels listed (12 open: a turn running, or used within [channels]
   * idle_timeout_minutes)}; null when every channel with a record is listed.
   */
  public static String channelsLeftOut(ChannelListing.Listed channels) {
    if (channels.listed() == channels.all()) {
      return null;
    }
    return String.format(
        "%,d of %,d channels listed (%,d open: a turn running, or used within [channels]"
            + " idle_timeout_minutes)",
        channels.listed(), channels.all(), channels.open());
  }

  /**
   * The table of {@code report}'s agents and listed channels, with a COST column: each session's
   * cost so far, from {@code costs} (session id → its turns in the usage ledger); {@code -} for a
   * session with no turns recorded. Null: no column. Then the notes, problems and damaged rows, and
   * {@link #channelsLeftOut} when channels were left out.
   */
  public static String format(
      StatusReport report, List<String> problems, Map<String, UsageTotal> costs) {
    List<String[]> rows = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    rows.add(costs == null ? HEADINGS : withCost(HEADINGS, "COST"));
    Set<String> damaged = new HashSet<>();
    report.damagedSessions().forEach(d -> damaged.add(d.owner()));
    for (SessionStatus s : report.listed()) {
      SessionRecord r = s.record();
      // A closed session's figures are history: the next turn starts a fresh context.
      ContextUse context = r != null && r.active() ? r.context() : null;
      String note = ContextFigures.compactionNote(context);
      if (note != null) {
        notes.add(s.owner() + ": " + note);
      }
      if (r != null && r.active() && !r.previousBackendSessionIds().isEmpty()) {
        notes.add(s.owner() + ": " + condensedNote(r.previousBackendSessionIds()));
      }
      String[] row =
          new String[] {
            s.owner(),
            s.activity(),
            r == null
                ? damaged.contains(s.owner()) ? "damaged" : "none"
                : r.active() ? "active" : "closed (" + r.closeReason() + ")",
            s.age() == null ? "-" : age(s.age()),
            r == null ? "0" : String.format("%,d", r.inputTokens()),
            ContextFigures.describe(context),
            r == null ? "0" : String.valueOf(r.messageCount()),
            r == null ? "0" : String.valueOf(r.rebuilds()),
            r == null ? "-" : r.backend()
          };
      if (costs != null) {
        UsageTotal cost = r == null ? null : costs.get(r.sessionId().toString());
        row = withCost(row, cost == null ? "-" : CostText.of(cost));
      }
      rows.add(row);
    }
    StringBuilder out = new StringBuilder(Tables.format(rows));
    for (String note : notes) {
      out.append(MessageFormat.safeText(note)).append('\n');
    }
    for (String problem : problems) {
      out.append("problem: ").append(MessageFormat.safeText(problem)).append('\n');
    }
    for (DamagedSession d : report.damagedSessions()) {
      out.append("damaged session: ").append(MessageFormat.safeText(d.describe())).append('\n');
    }
    String left = channelsLeftOut(report.channels());
    if (left != null) {
      out.append(left).append('\n');
    }
    return out.toString();
  }

  /** {@code condensed 2 times; earlier back-end sessions: a, b}, the newest three at most. */
  static String condensedNote(List<String> previous) {
    int n = previous.size();
    List<String> shown = previous.subList(Math.max(0, n - 3), n);
    return "condensed "
        + n
        + (n == 1 ? " time" : " times")
        + "; earlier back-end sessions: "
        + (n > shown.size() ? "..., " : "")
        + String.join(", ", shown);
  }

  private static String[] withCost(String[] row, String cost) {
    String[] out = Arrays.copyOf(row, row.length + 1);
    out[row.length] = cost;
    return out;
  }

  /** {@code 45s}, {@code 12m}, {@code 3h 05m}, {@code 2d 04h}. */
  public static String age(Duration d) {
    long s = d.toSeconds();
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return (s / 60) + "m";
    }
    if (s < 86_400) {
      return String.format("%dh %02dm", s / 3600, (s % 3600) / 60);
    }
    return String.format("%dd %02dh", s / 86_400, (s % 86_400) / 3600);
  }
}
