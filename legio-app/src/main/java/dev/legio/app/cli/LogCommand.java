package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.MessageFormat;
import dev.legio.config.Durations;
import dev.legio.log.Audience;
import dev.legio.log.ImportResult;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageThread;
import dev.legio.log.Names;
import dev.legio.log.NewMessage;
import dev.legio.log.PruneResult;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.LegioDatabaseReader;
import dev.legio.session.KnownNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "log",
    mixinStandardHelpOptions = true,
    description = "Work with the message log (the praetorium).",
    subcommands = {
      LogCommand.Post.class,
      LogCommand.Thread.class,
      LogCommand.Import.class,
      LogCommand.Prune.class
    })
final class LogCommand implements Runnable {
  @ParentCommand LegioCommand root;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "post",
      mixinStandardHelpOptions = true,
      description = "Append a message to the log and print it as stored.")
  static final class Post implements Callable<Integer> {
    @ParentCommand LogCommand log;

    @Option(
        names = "--from",
        paramLabel = "NAME",
        defaultValue = Names.CAESAR,
        description = "The sender (default: ${DEFAULT-VALUE}).")
    String from;

    @Option(
        names = "--to",
        paramLabel = "NAME",
        split = ",",
        description =
            "The audience, repeatable or comma-separated; 'all' for everyone"
                + " (default: legatus).")
    List<String> to = List.of(Names.LEGATUS);

    @Option(
        names = "--reply-to",
        paramLabel = "ID",
        description = "The id of the message this answers.")
    UUID replyTo;

    @Parameters(
        arity = "1..*",
        paramLabel = "TEXT",
        description = "The text (words are joined by spaces).")
    List<String> words;

    @Override
    public Integer call() {
      String text = String.join(" ", words);
      if (text.isBlank()) {
        // As `legio say` and the API refuse it: an empty message tells no agent anything.
        throw new dev.legio.log.InvalidMessageException("Nothing to post: the text is empty.");
      }
      try (LegioApp app = log.root.app()) {
        // An unknown name is refused as `legio say @nosuch` is, before anything is logged.
        KnownNames known = new KnownNames(app.agents().agentNames());
        Audience audience = known.audience(to);
        NewMessage message = new NewMessage(known.sender(from), audience, text, replyTo);
        log.root.out.print(MessageFormat.human(app.messageLog().append(message)));
      }
      return 0;
    }
  }

  @Command(
      name = "thread",
      mixinStandardHelpOptions = true,
      description = "Print a message with the messages it answers and the replies below it.")
  static final class Thread implements Callable<Integer> {
    @ParentCommand LogCommand log;

    @Parameters(paramLabel = "ID", description = "A message id.")
    UUID id;

    @Override
    public Integer call() {
      try (LegioApp app = log.root.app()) {
        MessageThread thread = app.messageLog().thread(id);
        thread.all().forEach(m -> log.root.out.print(MessageFormat.human(m)));
      }
      return 0;
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Copy the messages of a Legio praetorium.db into the configured store (SQLite or"
            + " PostgreSQL). The source file is only read.",
        "Safe to repeat: messages already present are skipped. A reply whose parent is missing"
            + " is imported without its link (and counted)."
      })
  static final class Import implements Callable<Integer> {
    @ParentCommand LogCommand log;

    @Parameters(paramLabel = "PATH", description = "The praetorium.db to import.")
    Path source;

    @Option(
        names = "--batch",
        paramLabel = "N",
        defaultValue = "1000",
        description = "Messages per transaction (default: ${DEFAULT-VALUE}).")
    int batch;

    @Override
    public Integer call() throws IOException {
      if (batch < 1) {
        throw new IllegalArgumentException(
            "--batch must be at least 1 (messages per transaction), not " + batch);
      }
      try (LegioApp app = log.root.app()) {
        Path from =
            log.root.context.currentDirectory().resolve(source).toAbsolutePath().normalize();
        Path target = app.config().praetorium().sqlitePath();
        if (app.config().praetorium().store() == dev.legio.config.PraetoriumSettings.Store.SQLITE
            && Files.exists(target)
            && Files.exists(from)
            && Files.isSameFile(from, target)) {
          throw new IllegalArgumentException(
              from + " is this workspace's own log: import another workspace's praetorium.db");
        }
        ImportResult total = new ImportResult(0, 0, 0);
        try (LegioDatabaseReader reader = new LegioDatabaseReader(from);
            ProgressBar progress =
                Terminal.attached()
                    ? new ProgressBarBuilder()
                        .setTaskName("Importing")
                        .setInitialMax(reader.total())
                        .setUnit(" msgs", 1)
                        .setConsumer(new ConsoleProgressBarConsumer(System.err))
                        .build()
                    : null) {
          MessageLog messages = app.messageLog();
          for (List<Message> page = reader.next(batch);
              !page.isEmpty();
              page = reader.next(batch)) {
            total = total.plus(messages.importMessages(page));
            if (progress != null) {
              progress.stepBy(page.size());
            }
          }
        }
        log.root.out.printf(
            "imported %d messages, %d already present, %d replies unlinked from a missing parent%n",
            total.imported(), total.alreadyPresent(), total.unlinkedReplies());
      }
      return 0;
    }
  }

  @Command(
      name = "prune",
      mixinStandardHelpOptions = true,
      description = {
        "Remove messages older than a given age. Messages that newer ones reply to are kept,"
            + " so no reply loses its parent.",
        "With --archive, the removed messages are first appended to a JSON Lines file and forced"
            + " to disk; if that fails, nothing is removed. An existing archive is appended to,"
            + " never replaced, so a job may use one archive name every time; a file that is not"
            + " such an archive (the database, legio.toml, a folder, a device) is refused. A new"
            + " archive is readable by its owner only."
      })
  static final class Prune implements Callable<Integer> {
    @ParentCommand LogCommand log;

    @Option(
        names = "--older-than",
        required = true,
        paramLabel = "AGE",
        description = "An age such as 90d, 12h, 30m or an ISO-8601 duration (P90D).")
    String olderThan;

    @Option(
        names = "--archive",
        paramLabel = "FILE",
        description =
            "Append the removed messages to FILE (JSON Lines, created owner-only) before"
                + " removing them.")
    Path archive;

    @Override
    public Integer call() {
      Duration age = Durations.parse(olderThan);
      try (LegioApp app = log.root.app()) {
        // The database's time on PostgreSQL: the clock the messages were stamped on.
        Instant cutoff = Durations.before(app.storeNow(), age);
        PruneArchive file =
            archive == null
                ? null
                : PruneArchive.check(
                    log.root.context.currentDirectory().resolve(archive),
                    Stream.of(app.workspace().configFile(), app.config().praetorium().sqlitePath())
                        .filter(Objects::nonNull)
                        .toList());
        PruneResult result =
            file == null ? app.messageLog().prune(cutoff) : app.messageLog().prune(cutoff, file);
        log.root.out.printf(
            "removed %d messages older than %s; kept %d older ones that newer messages reply to%s%n",
            result.removed().size(),
            Timestamps.format(cutoff),
            result.keptAsAncestors(),
            file == null ? "" : "; archived to " + file.file());
      }
      return 0;
    }
  }
}
