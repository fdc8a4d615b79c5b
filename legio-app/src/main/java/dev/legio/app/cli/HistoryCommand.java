package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.MessageFormat;
import dev.legio.log.Message;
import dev.legio.log.Names;
import dev.legio.log.PraetoriumXml;
import dev.legio.session.KnownNames;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = "Print the newest messages of the log, as caesar sees it or as one agent does.")
final class HistoryCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Option(
      names = "--viewer",
      paramLabel = "NAME",
      defaultValue = Names.CAESAR,
      description = "See the log as this agent does (default: ${DEFAULT-VALUE}, who sees all).")
  String viewer;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "How many messages (default: history_window from legio.toml).")
  Integer limit;

  @Option(
      names = "--after",
      paramLabel = "SEQ",
      defaultValue = "0",
      description = "Only messages with a sequence number above SEQ.")
  long after;

  @Option(names = "--xml", description = "Print the <praetorium> XML that goes into prompts.")
  boolean xml;

  @Override
  public Integer call() {
    try (LegioApp app = root.readingApp()) {
      new KnownNames(app.agents().agentNames()).viewer(viewer); // as legio say refuses @nosuch
      int n = limit == null ? app.config().historyWindow() : limit;
      List<Message> messages = app.messageLog().visibleTo(viewer, after, n);
      if (xml) {
        root.out.println(PraetoriumXml.format(messages, viewer));
      } else if (messages.isEmpty()) {
        root.out.println("(no messages visible to " + viewer + ")");
      } else {
        messages.forEach(m -> root.out.print(MessageFormat.human(m)));
      }
    }
    return 0;
  }
}
