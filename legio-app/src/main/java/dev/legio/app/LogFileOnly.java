package dev.legio.app;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * Keeps events marked {@link #MARKER} off the console: the details of a failure whose one-line
 * message the command already printed on standard error go to the log file only.
 */
public final class LogFileOnly extends Filter<ILoggingEvent> {
  /** Marks an event for the log file only. */
  public static final Marker MARKER = MarkerFactory.getMarker("LOG_FILE_ONLY");

  @Override
  public FilterReply decide(ILoggingEvent event) {
    var markers = event.getMarkerList();
    return markers != null && markers.contains(MARKER) ? FilterReply.DENY : FilterReply.NEUTRAL;
  }
}
