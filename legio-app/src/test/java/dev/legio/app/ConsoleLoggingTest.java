package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import dev.legio.secrets.SecretRedactor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The console's logging as {@link ConsoleLogging} sets it up, on a logger context of its own. */
@Isolated // swaps System.err
class ConsoleLoggingTest {
  private final LoggerContext context = new LoggerContext();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream realErr;

  @BeforeEach
  void captureStandardError() {
    context.setMDCAdapter(new LogbackMDCAdapter()); // as logback's own start gives its context
    realErr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStandardError() {
    System.setErr(realErr);
    context.stop();
  }

  private String console() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aWarningIsOneLineWithoutItsStackTraceAndItsSecretsRedacted() {
    assertThat(new ConsoleLogging().configure(context))
        .isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    Logger log = context.getLogger("dev.legio.app.Example");

    log.warn("the back-end refused key sk-ant-api03-abcdefghijkl", new IllegalStateException("x"));
    log.error("it broke");

    assertThat(console())
        .isEqualTo(
            "legio: WARN: the back-end refused key "
                + SecretRedactor.MASK
                + "\nlegio: ERROR: it broke\n");
  }

  @Test
  void infoAndEventsForTheLogFileOnlyStayOffTheConsole() {
    new ConsoleLogging().configure(context);
    Logger log = context.getLogger("dev.legio.app.Example");

    log.info("started");
    log.warn(LogFileOnly.MARKER, "the details of a failure already printed");

    assertThat(console()).isEmpty();
  }

  @Test
  void aLogbackFileTheUserNamesIsReadInstead() {
    System.setProperty(ConsoleLogging.USER_FILE_PROPERTY, "/somewhere/logback.xml");
    try {
      assertThat(new ConsoleLogging().configure(context))
          .isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    } finally {
      System.clearProperty(ConsoleLogging.USER_FILE_PROPERTY);
    }
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext())
        .isFalse();
  }
}
