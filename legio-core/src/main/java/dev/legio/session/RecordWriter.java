package dev.legio.session;

import java.util.Objects;

/**
 * Where an edit of a session (a reset, a rewind, a fork) writes its owner's record.
 *
 * <p>Rule: an edit run by {@link SessionEditGate} writes through one that saves (or deletes) only
 * while the edit's lease on the owner holds, checked in the same transaction as the write ({@link
 * SessionStore#saveWhileLeased}, {@link SessionStore#deleteWhileLeased}); past that it writes
 * nothing and throws {@link LeaseLostException}. An edit run without a gate (a store no process
 * serves) writes plainly ({@link #plain}).
 */
public interface RecordWriter {
  void save(SessionRecord record);

  /** Deletes the owner's record: a damaged row ({@link DamagedSession}) that a reset clears. */
  void delete(String owner);

  /** Writes straight to {@code store}, under no lease. */
  static RecordWriter plain(SessionStore store) {
    Objects.requireNonNull(store, "store");
    return new RecordWriter() {
      @Override
      public void save(SessionRecord record) {
        store.save(record);
      }

      @Override
      public void delete(String owner) {
        store.delete(owner);
      }
    };
  }
}
