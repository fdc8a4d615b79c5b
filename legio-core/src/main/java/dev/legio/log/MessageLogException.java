package dev.legio.log;

/** The store behind the message log failed (I/O, lost connection, corrupt file, ...). */
public class MessageLogException extends RuntimeException {
  public MessageLogException(String message, Throwable cause) {
    super(message, cause);
  }

  public MessageLogException(String message) {
    super(message);
  }
}
