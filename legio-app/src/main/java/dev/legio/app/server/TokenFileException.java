package dev.legio.app.server;

import dev.legio.errors.UsageError;

/**
 * The server's token file ({@code castra/server/tokens.json}) cannot be read as tokens: it is not
 * valid JSON, or not readable. The message names the file and what to do (restore it, or move it
 * aside and create the tokens again); {@code legio serve} refuses to start on it, and a running
 * server answers 503 without the file's path while it stays so.
 */
public final class TokenFileException extends IllegalStateException implements UsageError {
  TokenFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
