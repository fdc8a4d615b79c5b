package dev.legio.session;

/**
 * A turn tried to store its result after its session lease had passed to another holder (it ran out
 * and another process took it): nothing of the turn was written, since the other holder may be
 * driving the same session.
 */
public final class LeaseLostException extends SessionStoreException {
  public LeaseLostException(String owner, String holder) {
    super(
        "the session lease of '"
            + owner
            + "' is no longer held by "
            + holder
            + " (another Legio process took it): the turn was not stored; send the message again");
  }
}
