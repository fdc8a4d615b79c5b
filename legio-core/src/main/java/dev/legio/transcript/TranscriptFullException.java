package dev.legio.transcript;

/**
 * An append would take a transcript past its total size limit; nothing was written. Start a new
 * session (or compact this one) to go on.
 */
public final class TranscriptFullException extends TranscriptException {
  public TranscriptFullException(String message) {
    super(message);
  }
}
