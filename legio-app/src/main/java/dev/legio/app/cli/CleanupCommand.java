package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.MessageFormat;
import dev.legio.app.text.Tables;
import dev.legio.session.DailyCleanup;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code legio cleanup}: the daily cleanup of {@code legio serve}, run now. */
@Command(
    name = "cleanup",
    mixinStandardHelpOptions = true,
    description = {
      "Run the daily cleanup of `legio serve` now, in this process, and print what it deleted:"
          + " expired session records, expired task sessions with their stored conversations, the"
          + " HTTP back-ends' conversations inactive past the longest TTL, old usage ledger rows,"
          + " expired gateway delivery ids.",
      "A run that completes is recorded in the store, as serve's runs are: it counts as the day's"
          + " run, which a `legio serve` started before the next [sessions] cleanup_at does not make"
          + " up again. It runs whether or not a `legio serve` holds the daily-cleanup job (the"
          + " deletions are safe to run twice). Exit 1 when a part failed (the others still run)."
    })
final class CleanupCommand implements Callable<Integer> {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  @ParentCommand LegioCommand root;

  @Override
  public Integer call() {
    try (LegioApp app = root.app()) {
      DailyCleanup.Report report = app.dailyCleanup().run();
      root.out.print(format(report));
      root.out.flush();
      return report.complete() ? 0 : LegioCommand.FAILURE;
    }
  }

  /** The report as {@code legio cleanup} prints it: one line per part, then how it ended. */
  static String format(DailyCleanup.Report report) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"DELETED", "COUNT"});
    for (DailyCleanup.Outcome o : report.outcomes()) {
      rows.add(
          new String[] {
            o.deletes(),
            o.failed()
                ? "failed: " + MessageFormat.safeText(o.failure())
                : String.format("%,d", o.deleted())
          });
    }
    StringBuilder out = new StringBuilder(Tables.format(rows));
    if (!report.complete()) {
      out.append("The cleanup did not complete")
          .append(LegioCommand.detailsNote())
          .append("; `legio serve` makes it up at its next start or cleanup time.\n");
    } else if (report.recorded()) {
      out.append("Completed at ")
          .append(TIME.format(report.started().plus(report.took())))
          .append(" (in ")
          .append(report.took().toMillis())
          .append(" ms).\n");
    } else {
      out.append(
          "Completed, but its time could not be recorded in the store"
              + LegioCommand.detailsNote()
              + ": a `legio serve` started before its next cleanup time runs it again.\n");
    }
    return out.toString();
  }
}
