package dev.legio.app;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The log file's appender, which keeps the log its owner's only: the log tells what was said to
 * whom and when, as the transcripts do.
 *
 * <p>Rules: whenever logback opens the active file (at start and after each roll-over), a missing
 * file is first created {@code rw-------} and missing folders above it {@code rwx------} ({@link
 * OwnerOnly}); logback then appends to it and keeps those permissions. A log file or folder that
 * exists already keeps its permissions. The rolled files ({@code legio.log.*.gz}) are written by
 * logback as the umask says, so they are private when the folder is: the folder {@code legio init}
 * makes ({@code castra/logs}) and one this appender makes are owner-only.
 */
final class OwnerOnlyLogFile extends RollingFileAppender<ILoggingEvent> {
  @Override
  public void openFile(String fileName) throws IOException {
    Path file = Path.of(fileName).toAbsolutePath();
    OwnerOnly.createDirectories(file.getParent());
    OwnerOnly.createFileIfMissing(file);
    super.openFile(fileName);
  }
}
