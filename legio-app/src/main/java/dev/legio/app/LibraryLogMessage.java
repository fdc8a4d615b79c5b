package dev.legio.app;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.legio.errors.Quoted;

/**
 * A log line's message ({@code %msg}) as Legio writes it: a library's (any logger outside {@code
 * dev.legio}, the MCP SDK's and Jetty's among them) is quoted with {@link Quoted#message}, control
 * characters and line separators escaped, because libraries put what a client sent into their
 * messages as it came (the MCP SDK: a response's id, initialize's {@code protocolVersion} and
 * {@code clientInfo}), so a newline in it would forge a line of Legio's log. Legio's own messages
 * quote others' text with {@link Quoted} where they build it, and are written as they are.
 */
public final class LibraryLogMessage extends ClassicConverter {
  @Override
  public String convert(ILoggingEvent event) {
    String message = event.getFormattedMessage();
    String logger = event.getLoggerName();
    boolean legios =
        logger != null && (logger.startsWith("dev.legio.") || logger.equals("dev.legio"));
    return legios ? message : Quoted.message(message);
  }
}
