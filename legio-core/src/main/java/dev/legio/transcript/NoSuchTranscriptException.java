package dev.legio.transcript;

import dev.legio.errors.UsageError;

/** There is no transcript for the session id asked for. */
public final class NoSuchTranscriptException extends TranscriptException implements UsageError {
  public NoSuchTranscriptException(String message) {
    super(message);
  }
}
