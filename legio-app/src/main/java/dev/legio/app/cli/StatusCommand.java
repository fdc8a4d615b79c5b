package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.GatewayTable;
import dev.legio.app.text.SessionCosts;
import dev.legio.app.text.StatusTable;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Show each agent's and channel's session: status, age, cumulative input tokens, context"
            + " use as a share of the model's window, messages, rebuilds and cost so far, as recorded in"
            + " the store; and which sessions have auto-compact off after failures; then each chat"
            + " gateway as `legio serve` last reported it: state, messages in and out, why.")
final class StatusCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Override
  public Integer call() {
    try (LegioApp app = root.readingApp()) {
      root.out.print(
          StatusTable.format(
              app.engine().status(), app.agents().problems(), SessionCosts.of(app.usage())));
      root.out.println(app.backendChoice());
      String gateways =
          GatewayTable.format(app.store().gatewayState().reports(), root.context.clock().instant());
      if (!gateways.isEmpty()) {
        root.out.println();
        root.out.print(gateways);
      }
      root.out.flush();
      return 0;
    }
  }
}
