package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "say",
    mixinStandardHelpOptions = true,
    description = {
      "Send one message as caesar and print the replies.",
      "No @mention: the legatus answers. @vorenus: that agent. @vorenus @pullo: both, in parallel.",
      "Exit code: 0 when every agent answered, 1 when one failed or the usage of a turn could not"
          + " be recorded, 2 when the message was refused, 130 after a Ctrl-C (one line says"
          + " whether the message was logged; a reply not come by then will not come)."
    })
final class SayCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Parameters(arity = "1..*", paramLabel = "TEXT", description = "The message (words are joined).")
  List<String> words;

  @Option(
      names = {"-q", "--quiet"},
      description = "Do not print progress lines (⏳ ...) on standard error.")
  boolean quiet;

  @Override
  public Integer call() {
    MessageInterruption interruption =
        new MessageInterruption(quiet ? DispatchListener.NONE : Replies.statusLines(root.err));
    MessageInterruption.CtrlC ctrlC = interruption.onCtrlC(root.err);
    try {
      LegioApp app = root.app();
      int code;
      try (app) {
        Outcome outcome;
        interruption.sending();
        try {
          outcome = app.engine().handle(String.join(" ", words), interruption);
        } finally {
          interruption.ended();
        }
        code = Replies.print(outcome, root.out, root.err);
      }
      // Closed: the usage ledger has been told of every turn.
      return Replies.unrecordedUsage(app.unrecordedUsage(), code, root.err);
    } finally {
      ctrlC.close();
    }
  }
}
