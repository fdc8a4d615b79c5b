package dev.legio.transcript;

/**
 * Another process held a transcript's lock for longer than an append or delete waits ({@link
 * FileTranscriptStore}'s lock wait); nothing was written or deleted. The message names the lock
 * file and how to find its holder; the same work can be done again once it lets go.
 */
public final class TranscriptLockedException extends TranscriptException {
  public TranscriptLockedException(String message, Throwable cause) {
    super(message, cause);
  }
}
