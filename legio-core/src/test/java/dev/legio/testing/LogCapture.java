package dev.legio.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Captures what Legio (or another library) logs (messages and stack traces) while a test runs.
 * Close to stop.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level level;
  private final boolean additive;

  /** Captures everything Legio's classes log, down to DEBUG (and keeps it off the console). */
  public LogCapture() {
    this("dev.legio");
  }

  /**
   * Captures everything the loggers under {@code name} log ({@code "io.modelcontextprotocol"}: the
   * MCP SDK's), down to DEBUG.
   */
  public LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    level = logger.getLevel();
    additive = logger.isAdditive();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
    logger.setAdditive(false);
  }

  /** Everything logged so far, as text: messages, exceptions and their causes. */
  public String text() {
    return appender.list.stream().map(LogCapture::render).collect(Collectors.joining("\n"));
  }

  /** Everything logged so far, as logback's events (level, message, exception). */
  public java.util.List<ILoggingEvent> events() {
    return java.util.List.copyOf(appender.list);
  }

  /** What was logged at WARN or ERROR, as {@link #text()} renders it. */
  public String warningsAndErrors() {
    return appender.list.stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .map(LogCapture::render)
        .collect(Collectors.joining("\n"));
  }

  private static String render(ILoggingEvent event) {
    StringBuilder out = new StringBuilder(event.getFormattedMessage());
    for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
      out.append("\n").append(t.getClassName()).append(": ").append(t.getMessage());
    }
    return out.toString();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(level);
    logger.setAdditive(additive);
    appender.stop();
  }
}
