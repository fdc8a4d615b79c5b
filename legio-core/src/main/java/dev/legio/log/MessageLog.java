package dev.legio.log;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The persistent log of every message exchanged by caesar, the legatus and the agents (the
 * "praetorium"). It is the source of truth from which sessions rebuild their context.
 *
 * <p>Rules every implementation keeps (the shared test suite checks each on every store):
 *
 * <ol>
 *   <li>{@link #append} returns only once the message is committed: it survives a kill of the
 *       process. Concurrent appends may share one transaction (group commit).
 *   <li>Sequence numbers are assigned by the store, strictly increasing in commit order: a reader
 *       that has seen sequence {@code s} will never later find a new message below {@code s}.
 *   <li>A message is refused, with nothing written, when its sender or an audience name is invalid,
 *       its audience is empty, its text is larger than the configured maximum, or its reply_to
 *       names no message in the log. {@link #appendAll} writes all of its messages or none.
 *   <li>Visibility ({@link Visibility}): caesar and the legatus see every message; any other viewer
 *       sees exactly the messages addressed to its name or to {@code all}, and those it sent (exact
 *       match).
 *   <li>The queries return the newest matching messages in chronological (sequence) order, and
 *       exactly {@code limit} of them whenever at least that many match.
 *   <li>{@link #prune} never leaves a reply whose parent is missing.
 * </ol>
 *
 * Implementations are thread-safe.
 */
public interface MessageLog extends AutoCloseable {

  /** Appends one message and returns it as stored (id, timestamp, sequence). */
  Message append(NewMessage message);

  /** Appends several messages in one transaction: all are stored, or none. */
  List<Message> appendAll(List<NewMessage> messages);

  /**
   * Copies messages that already have an id and a timestamp (from another log) into this one,
   * skipping those whose id is already present, in one transaction. A message whose parent is
   * neither in the log nor earlier in the batch is stored without its reply_to link. Returns how
   * many were stored.
   */
  ImportResult importMessages(List<Message> messages);

  Optional<Message> find(UUID id);

  /** The newest {@code limit} messages {@code viewer} may see, oldest first. */
  List<Message> visibleTo(String viewer, int limit);

  /**
   * The newest {@code limit} messages {@code viewer} may see whose sequence is above {@code
   * afterSequence}, oldest first.
   */
  List<Message> visibleTo(String viewer, long afterSequence, int limit);

  /**
   * The newest {@code limit} messages {@code viewer} may see whose sequence lies strictly between
   * {@code afterSequence} and {@code beforeSequence}, oldest first. This is how a session receives
   * exactly the messages it has not seen yet, up to the request it is answering.
   */
  List<Message> visibleTo(String viewer, long afterSequence, long beforeSequence, int limit);

  /** The newest {@code limit} messages of the whole log, oldest first. */
  List<Message> history(int limit);

  /** The message with its ancestors and replies; throws if no message has that id. */
  MessageThread thread(UUID id);

  /**
   * Removes messages older than {@code olderThan}, except those a newer message replies to
   * (directly or through a chain of replies).
   */
  default PruneResult prune(Instant olderThan) {
    return prune(olderThan, removed -> {});
  }

  /**
   * Like {@link #prune(Instant)}, handing the messages to {@code archive} before they are deleted,
   * in the same transaction: if the archive fails, nothing is deleted.
   */
  PruneResult prune(Instant olderThan, Archive archive);

  /**
   * Keeps pruned messages somewhere else. May be called more than once for one prune, never twice
   * with the same message (a transaction run again hands over only the messages not yet archived).
   */
  @FunctionalInterface
  interface Archive {
    void write(List<Message> removed) throws java.io.IOException;
  }

  /** How many messages the log holds. */
  long size();

  /** The highest sequence number in the log, 0 when it is empty. */
  long lastSequence();

  /** The configured maximum size of a message's text, in UTF-8 bytes. */
  long maxTextBytes();

  /**
   * How many messages this log has appended since it was opened, in this process ({@link #append},
   * {@link #appendAll} and the appends other stores make with it; imports not counted): the metric
   * {@code legio_messages_appended_total}. A log that does not count answers 0.
   */
  default long appendedSinceOpen() {
    return 0;
  }

  @Override
  void close();
}
