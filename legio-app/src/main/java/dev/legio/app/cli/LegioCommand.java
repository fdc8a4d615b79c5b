package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.LogFileOnly;
import dev.legio.app.Logging;
import dev.legio.errors.ExplainedFailure;
import dev.legio.errors.FailureText;
import dev.legio.errors.Quoted;
import dev.legio.errors.TryAgainLater;
import dev.legio.errors.UsageError;
import dev.legio.secrets.SecretRedactor;
import dev.legio.workspace.Workspace;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code legio}: the root command, holding the options every subcommand shares. */
@Command(
    name = "legio",
    mixinStandardHelpOptions = true,
    versionProvider = LegioCommand.Version.class,
    description = "Persistent memory, sessions and context for LLM agents.",
    subcommands = {
      InitCommand.class,
      SayCommand.class,
      ChatCommand.class,
      StatusCommand.class,
      UsageCommand.class,
      ResetCommand.class,
      ServeCommand.class,
      CleanupCommand.class,
      SessionsCommand.class,
      HistoryCommand.class,
      LogCommand.class,
      MemoryCommand.class,
      McpCommand.class,
      TokenCommand.class,
      GatewaysCommand.class,
      BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class LegioCommand implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(LegioCommand.class);

  /** Exit code for input the user can fix (bad option, invalid message, bad config). */
  public static final int USAGE = 2;

  /** Exit code for a failure of the system (database unreachable, I/O error). */
  public static final int FAILURE = 1;

  /**
   * What a command needs from its surroundings; tests pass their own.
   *
   * @param terminalInput for {@code legio chat}: the keyboard, or null for the system terminal
   * @param terminalOutput for {@code legio chat}: the screen, or null for the system terminal
   */
  public record Context(
      Map<String, String> env,
      Path currentDirectory,
      Clock clock,
      InputStream terminalInput,
      OutputStream terminalOutput) {
    public Context(Map<String, String> env, Path currentDirectory, Clock clock) {
      this(env, currentDirectory, clock, null, null);
    }
  }

  @Option(
      names = "--castra",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description = "The workspace (default: $LEGIO_HOME, else the current directory).")
  Path castra;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  final Context context;
  PrintWriter out;
  PrintWriter err;

  LegioCommand(Context context) {
    this.context = context;
  }

  public static CommandLine commandLine(Context context, PrintWriter out, PrintWriter err) {
    LegioCommand root = new LegioCommand(context);
    CommandLine commandLine = new CommandLine(root);
    root.out = out;
    root.err = err;
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler(
        (e, cl, parseResult) -> {
          if (e instanceof UsageError || e instanceof IllegalArgumentException) {
            cl.getErr().println("legio: " + SecretRedactor.redact(e.getMessage()));
            return USAGE;
          }
          if (e instanceof TryAgainLater) {
            cl.getErr().println("legio: " + SecretRedactor.redact(e.getMessage()));
            return FAILURE; // busy, not broken: nothing for the log file
          }
          // The details (stack trace, causes) go to the log file; the console gets one line, and
          // the causes too when the log file did not take them.
          boolean written =
              Logging.logged(
                  () -> log.error(LogFileOnly.MARKER, "{} failed", cl.getCommandName(), e));
          String message =
              e instanceof ExplainedFailure
                  ? FailureText.of(e)
                  : commandName(cl) + " failed: " + FailureText.of(e);
          cl.getErr()
              .println(
                  "legio: "
                      + SecretRedactor.redact(message)
                      + (written ? " (details in the log file)" : ""));
          if (!written) {
            for (String cause : causes(e, message)) {
              cl.getErr().println("legio: cause: " + SecretRedactor.redact(cause));
            }
          }
          return FAILURE;
        });
    commandLine.setParameterExceptionHandler(LegioCommand::refuseArguments);
    commandLine.registerConverter(UUID.class, LegioCommand::messageId);
    return commandLine;
  }

  /**
   * What ends the line of a failure logged earlier: where its details are, when a log file takes
   * them ({@link Logging#logFile}); nothing otherwise.
   */
  static String detailsNote() {
    return Logging.logFile().isPresent() ? " (details in the log file)" : "";
  }

  /**
   * The causes of {@code e} in words ({@link FailureText}), outermost first, each one {@code
   * message} does not already say: what the console shows when no log file took the details.
   */
  static List<String> causes(Throwable e, String message) {
    List<String> said = new ArrayList<>();
    String shown = message;
    java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable c = e.getCause();
        c != null && seen.add(c) && said.size() < 10;
        c = c.getCause()) {
      String text = FailureText.of(c);
      if (!shown.contains(text)) {
        said.add(text);
        shown = shown + " " + text;
      }
    }
    return said;
  }

  /** The command as typed after {@code legio}: {@code log import}. */
  private static String commandName(CommandLine cl) {
    String name = cl.getCommandSpec().qualifiedName(" ");
    return name.startsWith("legio ") ? name.substring("legio ".length()) : name;
  }

  /**
   * Arguments picocli cannot take (an unknown option, a value of the wrong type): one line saying
   * which, and where the options are listed, rather than the whole usage; exit status 2.
   */
  private static int refuseArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    cl.getErr().println("legio: " + SecretRedactor.redact(e.getMessage()));
    CommandLine.UnmatchedArgumentException.printSuggestions(e, cl.getErr());
    cl.getErr()
        .println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for its options.");
    return USAGE;
  }

  /** A message id as given on the command line. */
  private static UUID messageId(String text) {
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(
          "'"
              + Quoted.of(text)
              + "' is not a message id (a UUID such as 01a21c0f-c443-71f2-becd-4d326a89fc0d; legio"
              + " history shows them)");
    }
  }

  /** The workspace chosen by --castra, LEGIO_HOME or the current directory. */
  Workspace workspace() {
    return Workspace.locate(castra, context.env(), context.currentDirectory());
  }

  /** The composition root for the chosen workspace, for a one-shot command. */
  LegioApp app() {
    return LegioApp.open(workspace(), context.env(), context.clock(), LegioApp.Lifetime.ONE_SHOT);
  }

  /**
   * The composition root for a one-shot command that only reads the store (history, usage, status,
   * sessions list and show): it works on a read-only castra ({@link
   * LegioApp.Lifetime#ONE_SHOT_READING}).
   */
  LegioApp readingApp() {
    return LegioApp.open(
        workspace(), context.env(), context.clock(), LegioApp.Lifetime.ONE_SHOT_READING);
  }

  /** The composition root for a command that runs until it is stopped (serve, chat). */
  LegioApp longRunningApp() {
    return LegioApp.open(
        workspace(), context.env(), context.clock(), LegioApp.Lifetime.LONG_RUNNING);
  }

  @Override
  public void run() {
    spec.commandLine().usage(out);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = LegioCommand.class.getPackage().getImplementationVersion();
      return new String[] {"legio " + (version == null ? "(development build)" : version)};
    }
  }
}
