package dev.legio.session;

import dev.legio.errors.TryAgainLater;

/**
 * An edit of a session (a reset, a rewind, a fork onto its owner) found a turn of that owner
 * running, in this process or another, for longer than {@code [sessions] lock_wait_seconds}:
 * nothing was changed. The message says so and to try again once the turn has answered.
 */
public final class SessionBusyException extends RuntimeException implements TryAgainLater {
  SessionBusyException(String message) {
    super(message);
  }
}
