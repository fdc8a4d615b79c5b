package dev.legio.transcript;

/** There is no transcript for the session id asked for. */
public final class NoSuchTranscriptException extends TranscriptException {
  public NoSuchTranscriptException(String message) {
    super(message);
  }
}
