package dev.legio.testing;

import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link SessionStore} in memory, for the session rules' unit tests that need no database. It
 * keeps the lease rules of the real stores ({@code JdbcSessionStore}): a lease is free when no one
 * holds it, when its time ran out ({@code until} before {@code now}), or for its own holder; a
 * lease counts as held at {@code now} while {@code until} is not before it. The real stores are
 * tested by {@code SessionStoreContract}.
 */
public final class InMemorySessionStore implements SessionStore {
  private record Lease(String holder, Instant until) {}

  private final Map<String, SessionRecord> records = new TreeMap<>();
  private final Map<String, Lease> leases = new TreeMap<>();

  /** Every {@link #tryLease} call, as {@code owner@holder}, in order. */
  public final List<String> leaseAttempts = new ArrayList<>();

  @Override
  public synchronized Optional<SessionRecord> find(String owner) {
    return Optional.ofNullable(records.get(owner));
  }

  @Override
  public synchronized void save(SessionRecord record) {
    records.put(record.owner(), record);
  }

  @Override
  public synchronized List<SessionRecord> list() {
    return new ArrayList<>(records.values());
  }

  @Override
  public synchronized boolean delete(String owner) {
    return records.remove(owner) != null;
  }

  @Override
  public synchronized int deleteExpired(Instant now) {
    int before = records.size();
    records.values().removeIf(r -> r.expiresAt().isBefore(now));
    return before - records.size();
  }

  @Override
  public synchronized boolean tryLease(
      String owner, String holder, Instant now, Duration duration) {
    leaseAttempts.add(owner + "@" + holder);
    Lease current = leases.get(owner);
    if (current != null && !current.until().isBefore(now) && !current.holder().equals(holder)) {
      return false;
    }
    leases.put(owner, new Lease(holder, now.plus(duration)));
    return true;
  }

  @Override
  public synchronized boolean renewLease(
      String owner, String holder, Instant now, Duration duration) {
    Lease current = leases.get(owner);
    if (current == null || !current.holder().equals(holder)) {
      return false;
    }
    leases.put(owner, new Lease(holder, now.plus(duration)));
    return true;
  }

  @Override
  public synchronized Set<String> leasedOwners(Instant now) {
    Set<String> out = new TreeSet<>();
    leases.forEach(
        (owner, lease) -> {
          if (!lease.until().isBefore(now)) {
            out.add(owner);
          }
        });
    return out;
  }

  @Override
  public synchronized void releaseLease(String owner, String holder) {
    Lease current = leases.get(owner);
    if (current != null && current.holder().equals(holder)) {
      leases.remove(owner);
    }
  }

  @Override
  public synchronized void saveAndReleaseLease(SessionRecord record, String holder) {
    save(record);
    releaseLease(record.owner(), holder);
  }

  /** As the real stores: an edit whose holder no longer holds the lease writes nothing. */
  @Override
  public synchronized void saveWhileLeased(SessionRecord record, String holder) {
    Lease current = leases.get(record.owner());
    if (current == null || !current.holder().equals(holder)) {
      throw new dev.legio.session.LeaseLostException(record.owner(), holder);
    }
    save(record);
  }

  /** As the real stores: an edit whose holder no longer holds the lease deletes nothing. */
  @Override
  public synchronized void deleteWhileLeased(String owner, String holder) {
    Lease current = leases.get(owner);
    if (current == null || !current.holder().equals(holder)) {
      throw new dev.legio.session.LeaseLostException(owner, holder);
    }
    delete(owner);
  }

  /** As the real stores: a turn whose holder no longer holds the lease writes nothing. */
  @Override
  public synchronized dev.legio.log.Message finishTurn(
      dev.legio.log.MessageLog log,
      dev.legio.log.NewMessage reply,
      SessionRecord record,
      String holder) {
    Lease current = leases.get(record.owner());
    if (current == null || !current.holder().equals(holder)) {
      throw new dev.legio.session.LeaseLostException(record.owner(), holder);
    }
    dev.legio.log.Message stored = log.append(reply);
    saveAndReleaseLease(record, holder);
    return stored;
  }

  /** Who holds {@code owner}'s lease (run out or not); empty when no one. */
  public synchronized Optional<String> holderOf(String owner) {
    return Optional.ofNullable(leases.get(owner)).map(Lease::holder);
  }
}
