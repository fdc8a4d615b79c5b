package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.config.ConfigException;
import dev.legio.errors.ExplainedFailure;
import dev.legio.errors.UsageError;
import dev.legio.log.MessageLogException;
import dev.legio.secrets.SecretRedactor;
import dev.legio.transcript.NoSuchTranscriptException;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * How a command that ends with an exception reports it ({@link UsageError}, {@link
 * ExplainedFailure}): the exit status, and the one line the operator reads.
 */
class CommandFailureTest {
  @TempDir Path dir;

  /** A command that throws what it is given. */
  @Command(name = "fail")
  static final class Failing implements Runnable {
    private final RuntimeException thrown;

    Failing(RuntimeException thrown) {
      this.thrown = thrown;
    }

    @Override
    public void run() {
      throw thrown;
    }
  }

  /** An exception of a kind the command line was never told about, but for its marker. */
  static final class NewKindOfUsageError extends RuntimeException implements UsageError {
    NewKindOfUsageError(String message) {
      super(message);
    }
  }

  /** As above, for a failure that explains itself. */
  static final class NewKindOfFailure extends RuntimeException implements ExplainedFailure {
    NewKindOfFailure(String message) {
      super(message);
    }
  }

  private record Outcome(int status, String err) {}

  private Outcome run(RuntimeException thrown) {
    StringWriter err = new StringWriter();
    PrintWriter errWriter = new PrintWriter(err, true);
    CommandLine commandLine =
        LegioCommand.commandLine(
            new LegioCommand.Context(Map.of(), dir, Clock.systemUTC()),
            new PrintWriter(new StringWriter(), true),
            errWriter);
    commandLine.addSubcommand("fail", new Failing(thrown));
    commandLine.setErr(errWriter); // again, for the command just added
    return new Outcome(commandLine.execute("fail"), err.toString());
  }

  /** Runs {@code legio args} in {@link #dir}. */
  private Outcome runArgs(String... args) {
    StringWriter err = new StringWriter();
    CommandLine commandLine =
        LegioCommand.commandLine(
            new LegioCommand.Context(Map.of(), dir, Clock.systemUTC()),
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));
    return new Outcome(commandLine.execute(args), err.toString());
  }

  /**
   * Asserts that a command ending with {@code thrown} exits with {@code status}, printing {@code
   * line} (whose note on the log file is there as this JVM's log file took the details or not:
   * {@link #theDetailsAreSaidToBeInTheLogFileOnlyWhenTheyReachedIt} pins it).
   */
  private void assertReported(RuntimeException thrown, int status, String line) {
    Outcome outcome = run(thrown);

    assertThat(outcome.status()).isEqualTo(status);
    String note = " (details in the log file)";
    assertThat(outcome.err().strip().replace(note, "")).isEqualTo(line.replace(note, ""));
  }

  @Test
  void theDetailsAreSaidToBeInTheLogFileOnlyWhenTheyReachedIt() throws Exception {
    Path ws = dir.resolve("legion");
    assertThat(runArgs("init", ws.toString()).status()).isZero();
    LegioApp.open(new Workspace(ws), Map.of(), Clock.systemUTC()).close(); // opens its log file
    Path logFile = ws.resolve("castra/logs/legio.log");
    RuntimeException thrown =
        new IllegalStateException(
            "the archive could not be written", new java.io.IOException("Read-only file system"));

    Outcome written = run(thrown);
    assertThat(written.err().strip())
        .isEqualTo(
            "legio: fail failed: the archive could not be written (details in the log file)");
    assertThat(Files.readString(logFile)).contains("fail failed").contains("Read-only file system");

    // The log file taken from under Legio, as a read-only or full log folder loses what is
    // written: the details reach no file, so the console gets the cause and no word of a log file.
    Files.delete(logFile);
    Outcome lost = run(thrown);
    assertThat(lost.status()).isEqualTo(LegioCommand.FAILURE);
    assertThat(lost.err().strip().lines())
        .containsExactly(
            "legio: fail failed: the archive could not be written",
            "legio: cause: Read-only file system");
  }

  @Test
  void aUsageErrorPrintsItsMessageAloneAndExitsWithUsage() {
    assertReported(
        new ConfigException("legio.toml: [server] port must be 0 - 65535"),
        LegioCommand.USAGE,
        "legio: legio.toml: [server] port must be 0 - 65535");
  }

  @Test
  void anyExceptionMarkedAsAUsageErrorIsOne() {
    assertReported(
        new NewKindOfUsageError("name the agent: legio reset NAME"),
        LegioCommand.USAGE,
        "legio: name the agent: legio reset NAME");
  }

  @Test
  void aUsageErrorThatIsAlsoAnExplainedFailureIsAUsageError() {
    // NoSuchTranscriptException is a TranscriptException, which explains itself.
    assertReported(
        new NoSuchTranscriptException("no transcript for session s-1"),
        LegioCommand.USAGE,
        "legio: no transcript for session s-1");
  }

  @Test
  void anExplainedFailurePrintsItsMessageWithoutItsClassName() {
    assertReported(
        new MessageLogException("the praetorium's file is read-only"),
        LegioCommand.FAILURE,
        "legio: the praetorium's file is read-only (details in the log file)");
  }

  @Test
  void anyExceptionMarkedAsAnExplainedFailureIsOne() {
    assertReported(
        new NewKindOfFailure("the disk is full"),
        LegioCommand.FAILURE,
        "legio: the disk is full (details in the log file)");
  }

  @Test
  void anyOtherFailureNamesItsCommandSinceItsMessageMayNotSayWhatFailedButNoJavaClass() {
    assertReported(
        new IllegalStateException("closed"),
        LegioCommand.FAILURE,
        "legio: fail failed: closed (details in the log file)");
    assertReported(
        new java.io.UncheckedIOException(
            new java.nio.file.NoSuchFileException("/tmp/nothere.jsonl")),
        LegioCommand.FAILURE,
        "legio: fail failed: /tmp/nothere.jsonl does not exist (details in the log file)");
    assertReported(
        new NullPointerException(),
        LegioCommand.FAILURE,
        "legio: fail failed: an unexpected NullPointerException (details in the log file)");
  }

  @Test
  void argumentsPicocliCannotTakeGetOneLineAndWhereTheOptionsAreNotTheWholeUsage() {
    Outcome outcome = runArgs("history", "--limit=99999999999");

    assertThat(outcome.status()).isEqualTo(LegioCommand.USAGE);
    assertThat(outcome.err().strip().lines())
        .containsExactly(
            "legio: Invalid value for option '--limit': '99999999999' is not an int",
            "Run 'legio history --help' for its options.");
  }

  @Test
  void aMessageIdThatIsNotOneSaysWhatAnIdLooksLike() {
    Outcome outcome = runArgs("log", "post", "--reply-to=abc\u001b[2J", "hi");

    assertThat(outcome.status()).isEqualTo(LegioCommand.USAGE);
    assertThat(outcome.err())
        .contains("'abc\\u001b[2J' is not a message id (a UUID such as")
        .contains("Run 'legio log post --help' for its options.")
        .doesNotContain("java.lang")
        .doesNotContain("\u001b");
  }

  @Test
  void aMessageIsMaskedOfSecretsEitherWay() {
    String key = "sk-ant-api03-" + "x".repeat(40);
    SecretRedactor.register(key);

    assertThat(run(new ConfigException("bad key " + key)).err()).doesNotContain(key);
    assertThat(run(new NewKindOfFailure("refused " + key)).err()).doesNotContain(key);
  }
}
