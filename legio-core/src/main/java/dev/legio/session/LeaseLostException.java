package dev.legio.session;

/**
 * A turn tried to store its result, or an edit its record, after its session lease had passed to
 * another holder (it ran out and another process took it): nothing was written, since the other
 * holder may be driving the same session. {@link SessionEditGate} words it for an edit.
 */
public final class LeaseLostException extends SessionStoreException {
  public LeaseLostException(String owner, String holder) {
    super(
        "the session lease of '"
            + owner
            + "' is no longer held by "
            + holder
            + " (another Legio process took it while this one paused): nothing was written, since"
            + " that process may be driving the session");
  }
}
