package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.session.SessionMaintenance;
import dev.legio.session.SessionSettings;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run Legio as a long-lived process: the idle-session reaper, the channel-session cleanup and"
          + " the daily deletion of expired session records.",
      "Stops cleanly on SIGTERM or Ctrl-C: background work first, then the agents' sessions, then"
          + " the legatus's, then the store."
    })
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @ParentCommand LegioCommand root;

  @Override
  public Integer call() throws InterruptedException {
    LegioApp app = root.app();
    CountDownLatch stopped = new CountDownLatch(1);
    SessionSettings s = app.config().sessions();
    SessionMaintenance maintenance = new SessionMaintenance(app.engine(), s, root.context.clock());
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info("stopping: signal received");
                  try {
                    maintenance.close();
                    app.close();
                    log.info("stopped cleanly");
                  } finally {
                    stopped.countDown();
                  }
                },
                "legio-shutdown"));
    maintenance.start();
    String summary =
        "Legio is serving "
            + app.workspace().root()
            + ": store "
            + app.config().praetorium().store().name().toLowerCase(java.util.Locale.ROOT)
            + ", back-end "
            + app.engine().backend().displayName()
            + ", agents "
            + String.join(", ", app.engine().knownAgents())
            + "; idle sessions reaped every "
            + s.reaperInterval().toSeconds()
            + " s (timeout "
            + s.idleTimeout().toMinutes()
            + " min), channel cleanup every "
            + s.channels().cleanupInterval().toMinutes()
            + " min, expired records deleted daily at "
            + s.cleanupAt()
            + " UTC.";
    log.info(summary);
    root.out.println(summary);
    root.out.println("Stop with Ctrl-C or SIGTERM.");
    root.out.flush();
    stopped.await();
    return 0;
  }
}
