package dev.legio.app;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.legio.secrets.SecretRedactor;

/**
 * The layout of every log line Legio writes, to the console and to the log file: a logback pattern
 * whose whole output (message, exception, every {@code Caused by:}) passes through {@link
 * SecretRedactor} before it reaches an appender; a library's message ({@code %msg}) is quoted
 * first, its control characters escaped ({@link LibraryLogMessage}).
 */
public final class RedactingLayout extends PatternLayout {
  public RedactingLayout() {
    for (String word : new String[] {"m", "msg", "message"}) {
      getInstanceConverterMap().put(word, LibraryLogMessage::new);
    }
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    return SecretRedactor.redact(super.doLayout(event));
  }
}
