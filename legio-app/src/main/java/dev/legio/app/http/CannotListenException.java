package dev.legio.app.http;

import dev.legio.errors.ExplainedFailure;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;

/**
 * A server could not take its address: the port is in use by another program, or the host is not
 * one of this machine's addresses.
 *
 * <p>Rule: the message is one line for the operator, without a class name: what could not be
 * served, on which host and port, why in plain words (a port in use is named so, with "stop it"
 * before the remedy; a host name that resolves to no address is named so too, as Java's own
 * exception for it has no words; another cause keeps the system's own words), and which setting to
 * change.
 */
public final class CannotListenException extends RuntimeException implements ExplainedFailure {
  private CannotListenException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * {@code what} (e.g. "the Legio API") could not listen on {@code host}:{@code port} because of
   * {@code cause}; {@code remedy} says what to change.
   */
  public static CannotListenException of(
      String what, String host, int port, Throwable cause, String remedy) {
    String at = ListeningConnector.address(host, port);
    String why =
        inUse(cause)
            ? "the port is in use by another program; stop it, or "
            : unresolved(cause)
                ? "the host '" + host + "' is not an address and no name lookup knows it; "
                : reason(cause) + "; ";
    return new CannotListenException(
        "cannot serve " + what + " on " + at + ": " + why + remedy, cause);
  }

  private static boolean inUse(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof BindException b
          && b.getMessage() != null
          && b.getMessage().toLowerCase(Locale.ROOT).contains("in use")) {
        return true;
      }
    }
    return false;
  }

  private static boolean unresolved(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
        return true;
      }
    }
    return false;
  }

  /** The deepest cause's own words (the system's, for a socket), or its type when it has none. */
  private static String reason(Throwable cause) {
    Throwable deepest = cause;
    while (deepest.getCause() != null) {
      deepest = deepest.getCause();
    }
    String message = deepest.getMessage();
    return message == null || message.isBlank() ? deepest.getClass().getSimpleName() : message;
  }
}
