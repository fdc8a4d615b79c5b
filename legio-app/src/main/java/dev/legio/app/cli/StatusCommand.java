package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.GatewayTable;
import dev.legio.app.text.SessionCosts;
import dev.legio.app.text.StatusTable;
import dev.legio.session.ChannelListing;
import dev.legio.session.StatusReport;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Show each agent's and open channel's session (a channel is open while a turn of it runs,"
            + " or while its session is active and was used within [channels]"
            + " idle_timeout_minutes; the others are counted): status, age, cumulative input"
            + " tokens, context use as a share of the model's window, messages, rebuilds and cost"
            + " so far, as recorded in the store; and which sessions have auto-compact off after"
            + " failures, and which session records are damaged (left out, each with what to do);"
            + " on PostgreSQL, how far this machine's clock is from the database's;"
            + " then each chat gateway as `legio serve` last reported it: state, messages in and"
            + " out, why.")
final class StatusCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Option(
      names = "--channels",
      paramLabel = "open|all",
      defaultValue = "open",
      description = "Which channels to list: open (the default) or all, closed and idle ones too.")
  String channels;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "" + ChannelListing.DEFAULT_LIMIT,
      description =
          "At most this many channels, the most recently used first (default: ${DEFAULT-VALUE};"
              + " at most "
              + ChannelListing.MAX_LIMIT
              + ").")
  int limit;

  @Override
  public Integer call() {
    ChannelListing listing = new ChannelListing(ChannelListing.Scope.of(channels), limit);
    try (LegioApp app = root.readingApp()) {
      StatusReport report = app.engine().status(listing);
      root.out.print(
          StatusTable.format(report, app.agents().problems(), SessionCosts.of(app.usage())));
      String more = hint(report.channels(), listing);
      if (more != null) {
        root.out.println(more);
      }
      root.out.println(app.backendChoice());
      app.databaseAlignedClock()
          .flatMap(dev.legio.store.DatabaseAlignedClock::believed)
          .ifPresent(
              m ->
                  root.out.println(
                      "Clock: " + m.inWords() + "; leases are compared on the database's time."));
      String gateways = GatewayTable.format(app.store().gatewayState().reports(), app.storeNow());
      if (!gateways.isEmpty()) {
        root.out.println();
        root.out.print(gateways);
      }
      root.out.flush();
      return 0;
    }
  }

  /** How to list the channels left out; null when none were. */
  static String hint(ChannelListing.Listed channels, ChannelListing listing) {
    if (channels.listed() == channels.all()) {
      return null;
    }
    boolean cutByLimit =
        listing.scope() == ChannelListing.Scope.ALL || channels.listed() < channels.open();
    return cutByLimit
        ? "`legio status --channels " + listing.scope().word() + " --limit N` lists more."
        : "`legio status --channels all` lists the closed and idle ones too.";
  }
}
