package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.config.Durations;
import dev.legio.log.Timestamps;
import dev.legio.usage.Grouping;
import dev.legio.usage.UsageReport;
import dev.legio.usage.UsageTotal;
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
    Instant from = root.context.clock().instant().minus(Durations.parse(since));
    try (LegioApp app = root.app()) {
      UsageReport report = app.usage().report(from, grouping);
      root.out.print(format(report));
      root.out.flush();
      return 0;
    }
  }

  /** The report as a table: a row per group, then the total, then the period. */
  static String format(UsageReport report) {
    List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {
          heading(report.by()),
          "TURNS",
          "INPUT",
          "OUTPUT",
          "CACHE READ",
          "CACHE WRITE",
          "COST (USD)"
        });
    for (UsageTotal t : report.rows()) {
      rows.add(row(t.group() == null ? "(none)" : MessageFormat.safeText(t.group()), t));
    }
    rows.add(row("TOTAL", report.total()));
    StringBuilder out = new StringBuilder(Tables.format(rows));
    out.append("since ")
        .append(Timestamps.format(report.since()))
        .append(report.rows().isEmpty() ? "; no turns recorded" : "")
        .append('\n');
    return out.toString();
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
