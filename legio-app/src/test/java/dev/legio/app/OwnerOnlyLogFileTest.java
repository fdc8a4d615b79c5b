package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log file is its owner's only: when logback first opens it, and after it rolls over. */
class OwnerOnlyLogFileTest {
  @TempDir Path dir;
  private final LoggerContext context = new LoggerContext();

  @BeforeEach
  void posix() {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
  }

  private static String permissions(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private OwnerOnlyLogFile started(Path file) {
    RedactingLayout layout = new RedactingLayout();
    layout.setContext(context);
    layout.setPattern("%msg%n");
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    OwnerOnlyLogFile appender = new OwnerOnlyLogFile();
    appender.setContext(context);
    appender.setFile(file.toString());
    FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
    rolling.setContext(context);
    rolling.setParent(appender);
    rolling.setFileNamePattern(file + ".%i"); // uncompressed: a renamed file keeps its mode
    rolling.start();
    SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
    trigger.setContext(context);
    trigger.start();
    appender.setRollingPolicy(rolling);
    appender.setTriggeringPolicy(trigger);
    appender.setEncoder(encoder);
    appender.start();
    return appender;
  }

  private void log(OwnerOnlyLogFile appender, String text) {
    appender.doAppend(
        new LoggingEvent(
            "test", context.getLogger("dev.legio.test"), Level.INFO, text, null, null));
  }

  @Test
  void theLogAndTheFoldersItCreatesAreTheOwnersOnlyAfterARollOverToo() throws Exception {
    Path file = dir.resolve("castra/logs/legio.log");
    OwnerOnlyLogFile appender = started(file);
    try {
      log(appender, "caesar said something private");
      assertThat(Files.readString(file)).contains("caesar said something private");
      assertThat(permissions(file)).isEqualTo("rw-------");
      assertThat(permissions(file.getParent())).isEqualTo("rwx------");
      assertThat(permissions(dir.resolve("castra"))).isEqualTo("rwx------");

      appender.rollover();
      log(appender, "after the roll-over");
      assertThat(Files.readString(file)).contains("after the roll-over");
      assertThat(permissions(file)).isEqualTo("rw-------");
      assertThat(permissions(Path.of(file + ".1"))).isEqualTo("rw-------");
    } finally {
      appender.stop();
    }
  }

  @Test
  void aLogFileThatExistsKeepsItsPermissionsAndItsLines() throws Exception {
    Path file = dir.resolve("legio.log");
    Files.writeString(file, "earlier\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    OwnerOnlyLogFile appender = started(file);
    try {
      log(appender, "later");
      assertThat(Files.readString(file)).isEqualTo("earlier\nlater\n");
      assertThat(permissions(file)).isEqualTo("rw-r-----");
    } finally {
      appender.stop();
    }
  }
}
