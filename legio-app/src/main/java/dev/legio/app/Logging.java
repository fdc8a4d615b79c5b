package dev.legio.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import dev.legio.errors.FailureText;
import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Logging: the console shows warnings and errors only ({@link ConsoleLogging}); once a workspace is
 * known, everything at the configured level also goes to its log file, rolled daily and at 10 MB,
 * 14 files kept. The log file is its owner's only ({@link OwnerOnlyLogFile}).
 *
 * <p>A log file that cannot be written ({@code [logging] file} a folder, in a folder Legio may not
 * write, ...) is said once on the console, with why and what to do; Legio then runs without one,
 * and its errors do not send the user to a log file ({@link #logFileRefused}).
 *
 * <p>A failure's details are said to be in the log file only when they reached it ({@link
 * #logged}): the file grew as they were written. A log file removed, made read-only or on a full
 * disk after it was opened takes nothing (logback drops the write, saying nothing), and no log file
 * at all (a command that failed before its workspace was read) takes nothing either; the caller
 * then prints the cause on the console instead.
 */
public final class Logging {
  private static Path current;
  private static boolean refused;

  private Logging() {}

  /** Whether the last log file set could not be opened, so errors' details go nowhere. */
  public static synchronized boolean logFileRefused() {
    return refused;
  }

  /**
   * The log file that takes what is logged: set, not refused, and still there; empty otherwise.
   * Whether a given write reached it is {@link #logged}'s to say.
   */
  public static synchronized java.util.Optional<Path> logFile() {
    return refused || current == null || !Files.isRegularFile(current)
        ? java.util.Optional.empty()
        : java.util.Optional.of(current);
  }

  /**
   * Runs {@code logging} (a failure's details sent to the log file) and says whether they reached
   * the log file: false without one, or when it did not grow (see the class comment).
   */
  public static boolean logged(Runnable logging) {
    Path file = logFile().orElse(null);
    long before = file == null ? -1 : sizeOf(file);
    logging.run();
    return before >= 0 && sizeOf(file) > before;
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }

  static synchronized void toFile(Path file, String level) {
    if (file.equals(current) || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext)) {
      return;
    }
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.detachAppender("FILE");
    current = file;
    refused = false;
    String problem = problemWith(file);
    if (problem != null) {
      refused(file, problem);
      return;
    }

    // Every line passes through SecretRedactor: no key reaches the file, not even in a cause.
    RedactingLayout layout = new RedactingLayout();
    layout.setContext(context);
    layout.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} - %msg%n");
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();

    // Owner-only: created rw------- before logback opens it, at start and at each roll-over.
    RollingFileAppender<ILoggingEvent> appender = new OwnerOnlyLogFile();
    appender.setName("FILE");
    appender.setContext(context);
    appender.setFile(file.toString());
    SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
    policy.setContext(context);
    policy.setParent(appender);
    policy.setFileNamePattern(file + ".%d{yyyy-MM-dd}.%i.gz");
    policy.setMaxFileSize(FileSize.valueOf("10MB"));
    policy.setMaxHistory(14);
    policy.start();
    appender.setRollingPolicy(policy);
    appender.setEncoder(encoder);
    appender.start();
    if (!appender.isStarted()) {
      refused(file, "it could not be opened");
      return;
    }

    // The console appender filters to WARN by itself; the root level feeds the file.
    root.setLevel(Level.toLevel(level, Level.INFO));
    // Jetty's debug output includes request headers, bearer tokens among them: never below INFO.
    context.getLogger("org.eclipse.jetty").setLevel(Level.INFO);
    root.addAppender(appender);
  }

  /** Why {@code file} cannot be the log file, or null when it can (created owner-only if new). */
  private static String problemWith(Path file) {
    if (Files.isDirectory(file)) {
      return "it is a folder";
    }
    try {
      OwnerOnly.createDirectories(file.toAbsolutePath().getParent());
      OwnerOnly.createFileIfMissing(file);
    } catch (IOException e) {
      return "it cannot be created: " + FailureText.of(e);
    }
    return Files.isWritable(file) ? null : "it cannot be written (permission denied)";
  }

  private static void refused(Path file, String why) {
    refused = true;
    LoggerFactory.getLogger(Logging.class)
        .warn(
            "cannot write the log file {} ([logging] file in legio.toml): {}. Legio runs without a"
                + " log file: make that file writable, or set [logging] file to one Legio can"
                + " write.",
            file,
            why);
  }
}
