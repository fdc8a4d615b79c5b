package dev.legio.session;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where session records and session leases are kept: the same database as the message log (SQLite
 * or PostgreSQL), so several Legio processes sharing one database agree on both.
 *
 * <p>Rules every implementation keeps (the shared contract test checks each on every store):
 *
 * <ol>
 *   <li>{@link #save} replaces the owner's record as a whole (insert or update); {@link #find}
 *       returns exactly what was last saved, timestamps to the microsecond.
 *   <li>{@link #deleteExpired} deletes exactly the records whose {@code expiresAt} is before {@code
 *       now}, and returns how many.
 *   <li>A lease is held by at most one holder at a time. {@link #tryLease} succeeds when no one
 *       holds the lease, when the current lease has run out ({@code until} before {@code now}), or
 *       when the caller already holds it (which extends it). It is atomic between processes.
 *   <li>A lease records the process that holds it ({@link LeaseHolder}: host and pid). A lease
 *       whose holder is gone (a process on this host that has ended) is free: {@link #tryLease}
 *       takes it at once, {@link #leasedOwners} does not count it, {@link #releaseAbandonedLease}
 *       frees it.
 *   <li>While this process holds a lease, it renews it (a heartbeat, {@link HeldLeases}); when the
 *       process shuts down (SIGTERM, SIGINT) it releases it.
 *   <li>{@link #finishTurn} writes nothing and throws {@link LeaseLostException} when {@code
 *       holder} no longer holds the owner's lease (a turn that lost its lease stores nothing), and
 *       so does {@link #saveWhileLeased} (an edit that lost its lease stores nothing), and {@link
 *       #deleteWhileLeased}.
 *   <li>A row that cannot be read as a record ({@link DamagedSession}) hides no other: {@link
 *       #list} leaves it out and {@link #listing} names it ({@link SessionListing}); {@link #find}
 *       of its owner throws {@link DamagedSessionException} naming it; {@link #save} replaces it
 *       and {@link #delete} removes it as any row.
 * </ol>
 *
 * Implementations are thread-safe.
 */
public interface SessionStore {

  /**
   * The owner's record; empty when it has none.
   *
   * @throws DamagedSessionException when the owner's row cannot be read as a record
   */
  Optional<SessionRecord> find(String owner);

  /** Inserts or replaces the record of {@code record.owner()}. */
  void save(SessionRecord record);

  /**
   * Saves {@code record} only while {@code holder} holds the lease on its owner, checked in the
   * same transaction as the write: an edit of a session (a reset, a rewind, a fork) whose lease ran
   * out and was taken by a turn writes nothing, rather than a record the turn's end would then
   * overwrite, or that would overwrite the turn's.
   *
   * @throws LeaseLostException when {@code holder} does not hold the lease; nothing was written
   */
  void saveWhileLeased(SessionRecord record, String holder);

  /**
   * All records, ordered by owner in code point order (as {@link String#compareTo} for names
   * without characters beyond U+FFFF): {@code Pullo} before {@code legatus}, whatever the locale. A
   * damaged row is left out ({@link #listing} names it).
   */
  List<SessionRecord> list();

  /**
   * All records, as {@link #list}, and the rows that cannot be read as one ({@link
   * SessionListing}). By default a store that has no damaged rows: {@link #list} and none.
   */
  default SessionListing listing() {
    return new SessionListing(list(), List.of());
  }

  /** Deletes the owner's record; false when there was none. */
  boolean delete(String owner);

  /**
   * Deletes the owner's record (a damaged row a reset clears) only while {@code holder} holds the
   * lease on it, checked in the same transaction as the delete, as {@link #saveWhileLeased} saves.
   *
   * @throws LeaseLostException when {@code holder} does not hold the lease; nothing was deleted
   */
  void deleteWhileLeased(String owner, String holder);

  /** Deletes the records that expired before {@code now}; returns how many. */
  int deleteExpired(Instant now);

  /**
   * Takes (or extends) the lease on {@code owner}'s session for {@code holder} until {@code now +
   * duration}. Returns false, changing nothing, when another holder has a lease that has not run
   * out.
   */
  boolean tryLease(String owner, String holder, Instant now, Duration duration);

  /**
   * Extends {@code holder}'s lease on {@code owner} until {@code now + duration} when it still
   * holds it (run out or not); never takes one. False when another holder took the lease since,
   * even one that has given it up again: the session was run elsewhere meanwhile.
   */
  boolean renewLease(String owner, String holder, Instant now, Duration duration);

  /**
   * The owners whose session is leased at {@code now} (its lease has not run out), by any holder:
   * the sessions some Legio process is driving.
   */
  Set<String> leasedOwners(Instant now);

  /**
   * Frees {@code owner}'s lease when its holder is gone (see {@link LeaseHolder#isGone()}); returns
   * the holder it freed it from, or empty when the lease is free, its holder alive or on another
   * host.
   */
  default Optional<LeaseHolder> releaseAbandonedLease(String owner) {
    return Optional.empty();
  }

  /** Gives the lease up, if {@code holder} holds it. */
  void releaseLease(String owner, String holder);

  /**
   * How many leases this store has taken over since it was opened: leases it took from another
   * holder rather than finding them free or its own (for the metric {@code
   * legio_lease_takeovers_total}). A store that cannot tell answers 0.
   */
  default long leaseTakeovers() {
    return 0;
  }

  /**
   * Where the back-end conversation of {@code owner}'s active session is. Empty when the owner has
   * no active session, or the store does not record nodes (or did not when the session was saved).
   */
  default Optional<ConversationHome> conversationHome(String owner) {
    return Optional.empty();
  }

  /**
   * Saves {@code record} and gives up {@code holder}'s lease on its owner in one transaction: the
   * end of a turn, both or neither.
   */
  void saveAndReleaseLease(SessionRecord record, String holder);

  /** A request logged, and whether the lease on its owner's session was taken with it. */
  record LeasedRequest(Message message, boolean leased) {}

  /**
   * Appends {@code message} to {@code log} and tries to take the lease on {@code owner}'s session
   * for {@code holder} (as {@link #tryLease}). A store on the same database as {@code log} does
   * both in one transaction; others one after the other. The message is logged either way.
   */
  default LeasedRequest appendAndTryLease(
      MessageLog log,
      NewMessage message,
      String owner,
      String holder,
      Instant now,
      Duration duration) {
    Message stored = log.append(message);
    return new LeasedRequest(stored, tryLease(owner, holder, now, duration));
  }

  /**
   * Ends a turn: appends {@code reply} to {@code log}, saves {@code record} and gives up {@code
   * holder}'s lease. A store on the same database as {@code log} does it in one transaction (all
   * three land or none, and one commit instead of two); others one after the other.
   */
  default Message finishTurn(
      MessageLog log, NewMessage reply, SessionRecord record, String holder) {
    Message stored = log.append(reply);
    saveAndReleaseLease(record, holder);
    return stored;
  }
}
