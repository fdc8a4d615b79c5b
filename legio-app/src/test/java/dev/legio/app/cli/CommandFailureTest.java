package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.ConfigException;
import dev.legio.errors.ExplainedFailure;
import dev.legio.errors.UsageError;
import dev.legio.log.MessageLogException;
import dev.legio.secrets.SecretRedactor;
import dev.legio.transcript.NoSuchTranscriptException;
import java.io.PrintWriter;
import java.io.StringWriter;
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

  @Test
  void aUsageErrorPrintsItsMessageAloneAndExitsWithUsage() {
    Outcome outcome = run(new ConfigException("legio.toml: [server] port must be 0 - 65535"));

    assertThat(outcome.status()).isEqualTo(LegioCommand.USAGE);
    assertThat(outcome.err().strip())
        .isEqualTo("legio: legio.toml: [server] port must be 0 - 65535");
  }

  @Test
  void anyExceptionMarkedAsAUsageErrorIsOne() {
    Outcome outcome = run(new NewKindOfUsageError("name the agent: legio reset NAME"));

    assertThat(outcome.status()).isEqualTo(LegioCommand.USAGE);
    assertThat(outcome.err().strip()).isEqualTo("legio: name the agent: legio reset NAME");
  }

  @Test
  void aUsageErrorThatIsAlsoAnExplainedFailureIsAUsageError() {
    // NoSuchTranscriptException is a TranscriptException, which explains itself.
    Outcome outcome = run(new NoSuchTranscriptException("no transcript for session s-1"));

    assertThat(outcome.status()).isEqualTo(LegioCommand.USAGE);
    assertThat(outcome.err().strip()).isEqualTo("legio: no transcript for session s-1");
  }

  @Test
  void anExplainedFailurePrintsItsMessageWithoutItsClassName() {
    Outcome outcome = run(new MessageLogException("the praetorium's file is read-only"));

    assertThat(outcome.status()).isEqualTo(LegioCommand.FAILURE);
    assertThat(outcome.err().strip())
        .isEqualTo("legio: the praetorium's file is read-only (details in the log file)");
  }

  @Test
  void anyExceptionMarkedAsAnExplainedFailureIsOne() {
    Outcome outcome = run(new NewKindOfFailure("the disk is full"));

    assertThat(outcome.status()).isEqualTo(LegioCommand.FAILURE);
    assertThat(outcome.err().strip())
        .isEqualTo("legio: the disk is full (details in the log file)");
  }

  @Test
  void anyOtherFailureNamesItsClassSinceItsMessageMayNotSayWhatFailed() {
    Outcome outcome = run(new IllegalStateException("closed"));

    assertThat(outcome.status()).isEqualTo(LegioCommand.FAILURE);
    assertThat(outcome.err().strip())
        .isEqualTo("legio: java.lang.IllegalStateException: closed (details in the log file)");
  }

  @Test
  void aMessageIsMaskedOfSecretsEitherWay() {
    String key = "sk-ant-api03-" + "x".repeat(40);
    SecretRedactor.register(key);

    assertThat(run(new ConfigException("bad key " + key)).err()).doesNotContain(key);
    assertThat(run(new NewKindOfFailure("refused " + key)).err()).doesNotContain(key);
  }
}
