package dev.legio.session;

import dev.legio.backend.BackendSession;

/**
 * What this process holds for one owner: its turn queue, its live back-end session and the record
 * of that session, and what it is doing. The live session and the record are read and written only
 * by work running in the owner's {@link TurnQueue}; the activity may be read from anywhere.
 */
final class OwnerSlot {
  final Owner owner;
  final TurnQueue queue = new TurnQueue();

  /**
   * Held while a request to this owner is logged and queued ({@link SessionEngine}), so that the
   * owner's requests are queued in the order they were logged.
   */
  final java.util.concurrent.locks.ReentrantLock posting =
      new java.util.concurrent.locks.ReentrantLock();

  /** Volatile: {@link SessionEngine#openSessions} reads it from other threads. */
  volatile BackendSession live;

  SessionRecord record;
  volatile Activity activity = Activity.IDLE;

  OwnerSlot(Owner owner) {
    this.owner = owner;
  }

  String name() {
    return owner.name();
  }
}
