package dev.legio.session;

/**
 * A {@link RequestKey} was sent again with another text, or to other agents, than the request it
 * first came with; nothing was logged. A new request needs a new key.
 */
public final class RequestKeyReusedException extends IllegalArgumentException {
  RequestKeyReusedException(String message) {
    super(message);
  }
}
