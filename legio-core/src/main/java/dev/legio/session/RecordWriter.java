package dev.legio.session;

/**
 * Where an edit of a session (a reset, a rewind, a fork) writes its owner's record.
 *
 * <p>Rule: an edit run by {@link SessionEditGate} writes through one that saves only while the
 * edit's lease on the owner holds, checked in the same transaction as the write ({@link
 * SessionStore#saveWhileLeased}); past that it writes nothing and throws {@link
 * LeaseLostException}. An edit run without a gate (a store no process serves) saves plainly.
 */
@FunctionalInterface
public interface RecordWriter {
  void save(SessionRecord record);
}
