package dev.legio.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logging as every {@code legio} process starts it, before a workspace is known: warnings and
 * errors on standard error, one line each ({@code legio: WARN: ...}), no stack trace (those go to
 * the log file {@link Logging} adds), every line through {@link RedactingLayout}, and events marked
 * {@link LogFileOnly} kept off.
 *
 * <p>Rules: logback finds this class through {@code META-INF/services} and runs it instead of
 * reading an XML file: parsing one took about a quarter of the start of a short command such as the
 * {@code legio mcp} the Claude Code CLI starts for each agent outside {@code legio serve}
 * (docs/BENCHMARKS.md, session 28). A user who names a file of their own with {@code
 * -Dlogback.configurationFile} gets that file instead.
 */
public final class ConsoleLogging extends ContextAwareBase implements Configurator {
  /** The system property through which a user names a logback file of their own. */
  static final String USER_FILE_PROPERTY = "logback.configurationFile";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(USER_FILE_PROPERTY) != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    RedactingLayout layout = new RedactingLayout();
    layout.setContext(context);
    layout.setPattern("legio: %level: %msg%n%nopex");
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();

    ThresholdFilter warnings = new ThresholdFilter();
    warnings.setLevel(Level.WARN.levelStr);
    warnings.start();
    LogFileOnly notForTheConsole = new LogFileOnly();
    notForTheConsole.start();

    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setName("CONSOLE");
    console.setContext(context);
    console.setTarget("System.err");
    console.addFilter(warnings);
    console.addFilter(notForTheConsole);
    console.setEncoder(encoder);
    console.start();

    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
