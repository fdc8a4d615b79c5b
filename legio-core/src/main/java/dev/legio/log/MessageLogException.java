package dev.legio.log;

import dev.legio.errors.ExplainedFailure;

/** The store behind the message log failed (I/O, lost connection, corrupt file, ...). */
public class MessageLogException extends RuntimeException implements ExplainedFailure {
  public MessageLogException(String message, Throwable cause) {
    super(message, cause);
  }

  public MessageLogException(String message) {
    super(message);
  }
}
