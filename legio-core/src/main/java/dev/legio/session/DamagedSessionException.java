package dev.legio.session;

import java.util.Objects;

/**
 * The owner's row of the session store is damaged ({@link DamagedSession}): thrown by {@link
 * SessionStore#find} for that owner, its message naming the row, what is wrong and what to do.
 */
public final class DamagedSessionException extends SessionStoreException {
  private final transient DamagedSession damage;

  public DamagedSessionException(DamagedSession damage) {
    super(Objects.requireNonNull(damage, "damage").describe());
    this.damage = damage;
  }

  /** The damaged row. */
  public DamagedSession damage() {
    return damage;
  }
}
