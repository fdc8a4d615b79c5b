package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.CostText;
import dev.legio.app.text.MessageFormat;
import dev.legio.app.text.Tables;
import dev.legio.config.Durations;
import dev.legio.log.Timestamps;
import dev.legio.usage.Grouping;
import dev.legio.usage.UsageReport;
import dev.legio.usage.UsageTotal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "usage",
    mixinStandardHelpOptions = true,
    description =
        "Show the tokens and cost of the sessions' turns (agents, channels, tasks) from the usage"
            + " ledger, added up by agent, session, session key, task run, model or day, with the"
            + " total. A turn whose model has no known price counts as unknown, never guessed.")
final class UsageCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Option(
      names = "--since",
      paramLabel = "AGE",
      defaultValue = "7d",
      description = "Count the turns of this last period: 7d, 24h, 90d, P30D (default: 7d).")
  String since;

  @Option(
      names = "--by",
      paramLabel = "GROUP",
      defaultValue = "agent",
      description = "One row per agent, session, key, task-run, model or day (default: agent).")
  String by;

  @Override
  public Integer call() {
    Grouping grouping = Grouping.ofLabel(by);
    Duration span = Durations.parse(since);
    try (LegioApp app = root.readingApp()) {
      // The database's time on PostgreSQL: the clock the ledger's rows were stamped on.
      Instant from = Durations.before(app.storeNow(), span);
      UsageReport report = app.usage().report(from, grouping);
      root.out.print(format(report));
      root.out.flush();
      return 0;
    }
  }

  /**
   * The report as a table: a row per group, then the total, then the period. A FAILED column (the
   * turns that failed, counted in TURNS too) is shown when any turn failed.
   */
  static String format(UsageReport report) {
    boolean failures = report.total().failedTurns() > 0;
    List<String[]> rows = new ArrayList<>();
    rows.add(
        withFailed(
            new String[] {
              heading(report.by()),
              "TURNS",
              "INPUT",
              "OUTPUT",
              "CACHE READ",
              "CACHE WRITE",
              "COST (USD)"
            },
            failures ? "FAILED" : null));
    for (UsageTotal t : report.rows()) {
      rows.add(
          withFailed(
              row(t.group() == null ? "(none)" : MessageFormat.safeText(t.group()), t),
              failures ? String.format("%,d", t.failedTurns()) : null));
    }
    rows.add(
        withFailed(
            row("TOTAL", report.total()),
            failures ? String.format("%,d", report.total().failedTurns()) : null));
    StringBuilder out = new StringBuilder(Tables.format(rows));
    out.append("since ")
        .append(Timestamps.format(report.since()))
        .append(report.rows().isEmpty() ? "; no turns recorded" : "")
        .append('\n');
    return out.toString();
  }

  /** {@code row} with {@code failed} inserted after TURNS; {@code row} itself when null. */
  private static String[] withFailed(String[] row, String failed) {
    if (failed == null) {
      return row;
    }
    String[] out = new String[row.length + 1];
    out[0] = row[0];
    out[1] = row[1];
    out[2] = failed;
    System.arraycopy(row, 2, out, 3, row.length - 2);
    return out;
  }

  private static String[] row(String group, UsageTotal t) {
    return new String[] {
      group,
      String.format("%,d", t.turns()),
      String.format("%,d", t.tokens().input()),
      String.format("%,d", t.tokens().output()),
      String.format("%,d", t.tokens().cacheRead()),
      String.format("%,d", t.tokens().cacheWrite()),
      CostText.of(t)
    };
  }

  private static String heading(Grouping by) {
    return switch (by) {
      case AGENT -> "AGENT";
      case SESSION -> "SESSION";
      case KEY -> "SESSION KEY";
      case TASK_RUN -> "TASK RUN";
      case MODEL -> "MODEL";
      case DAY -> "DAY (UTC)";
    };
  }
}
