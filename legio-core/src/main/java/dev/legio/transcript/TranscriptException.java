package dev.legio.transcript;

import dev.legio.errors.ExplainedFailure;

/** A transcript could not be read or written; the message says which and why. */
public class TranscriptException extends RuntimeException implements ExplainedFailure {
  public TranscriptException(String message) {
    super(message);
  }

  public TranscriptException(String message, Throwable cause) {
    super(message, cause);
  }
}
