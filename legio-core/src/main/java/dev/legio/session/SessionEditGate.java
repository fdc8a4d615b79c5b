package dev.legio.session;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an edit of one owner's session (a reset, a rewind, a fork onto that owner) while no turn of
 * that owner runs, in this process or in another sharing the store.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The edit waits for the turns this process queued for the owner before it (the owner's
 *       {@link TurnQueue}, its place taken as a request's is, so that it never comes between a
 *       request and its place), then takes the owner's lease ({@link LeaseGate}) under a holder of
 *       its own, so that a turn on any process, this one included, ends first, and so does another
 *       edit of the owner; it gives up only that lease after the edit.
 *   <li>Both waits together last at most {@code [sessions] lock_wait_seconds}, as a request's do;
 *       past that nothing is edited and {@link SessionBusyException} says so.
 *   <li>The edit then waits (up to the same bound) until this process's turn listener has heard of
 *       every turn that ended before it, so that a rewind right after a turn finds that turn in the
 *       transcript.
 *   <li>The edit writes its owner's record through a {@link RecordWriter} that saves only while the
 *       edit's lease holds, checked in the write's own transaction: when the database stalled the
 *       edit for longer than the lease time and a turn took the lease meanwhile, nothing is written
 *       and {@link SessionBusyException} says so.
 *   <li>Hence a turn's end, which writes its session record, never undoes an edit made while it
 *       ran, and two edits of one owner run one after the other, each on what the other left.
 * </ul>
 */
public final class SessionEditGate {
  private static final Logger log = LoggerFactory.getLogger(SessionEditGate.class);

  /** A place taken in an owner's queue, with the slot whose queue it is. */
  record Placed(OwnerSlot slot, TurnQueue.Place place) {}

  private final Function<Owner, Placed> placeFor;
  private final Supplier<LeaseGate> editLeases;
  private final Duration lockWait;
  private final Predicate<Duration> turnsTold;

  /**
   * @param placeFor takes a place in the queue of the slot this process holds for an owner, or
   *     answers null when it holds none (a channel another node serves)
   * @param editLeases a lease gate with a holder of its own, new for each edit
   * @param turnsTold waits up to a time until the turn listener heard of every turn before
   */
  SessionEditGate(
      Function<Owner, Placed> placeFor,
      Supplier<LeaseGate> editLeases,
      Duration lockWait,
      Predicate<Duration> turnsTold) {
    this.placeFor = placeFor;
    this.editLeases = editLeases;
    this.lockWait = lockWait;
    this.turnsTold = turnsTold;
  }

  /**
   * Runs {@code edit} of {@code owner}'s session once no turn of it runs, giving it the only way it
   * may write {@code owner}'s record.
   *
   * @throws SessionBusyException when a turn of {@code owner} still ran after {@code lock_wait}, or
   *     took the edit's lease before the edit's write landed
   */
  public <T> T whileNoTurnRuns(String owner, Function<RecordWriter, T> edit) {
    long start = System.nanoTime();
    Placed placed = placeFor.apply(Owner.of(owner));
    if (placed == null) {
      return leased(owner, start, edit);
    }
    return placed
        .slot()
        .queue
        .run(
            placed.place(),
            lockWait,
            () -> leased(owner, start, edit),
            () -> {
              throw busy(owner, "a turn of it on this Legio node");
            });
  }

  private <T> T leased(String owner, long start, Function<RecordWriter, T> edit) {
    LeaseGate lease = editLeases.get();
    if (!lease.acquire(owner, lockWait.minusNanos(System.nanoTime() - start))) {
      throw busy(owner, "a turn or an edit of it, on this Legio node or another,");
    }
    RuntimeException failure = null;
    try {
      if (!turnsTold.test(lockWait)) {
        log.warn("{}: editing before the turn listener heard of every turn", owner);
      }
      return edit.apply(
          new RecordWriter() {
            @Override
            public void save(SessionRecord record) {
              mustBeOwn(record.owner());
              lease.saveWhileHeld(record);
            }

            @Override
            public void delete(String whose) {
              mustBeOwn(whose);
              lease.deleteWhileHeld(whose);
            }

            private void mustBeOwn(String whose) {
              if (!whose.equals(owner)) {
                throw new IllegalArgumentException(
                    "an edit of " + owner + "'s session may not write " + whose + "'s");
              }
            }
          });
    } catch (LeaseLostException e) {
      throw failure =
          new SessionBusyException(
              owner
                  + "'s session is busy: the database held this edit's write for longer than the"
                  + " session lease ([sessions] lease_ttl_seconds), and a turn took the lease"
                  + " meanwhile, so the session record was not changed. Try again once "
                  + owner
                  + " has answered.");
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      lease.releaseAfter(owner, failure); // never hides how the edit ended
    }
  }

  private SessionBusyException busy(String owner, String what) {
    return new SessionBusyException(
        owner
            + "'s session is busy: "
            + what
            + " still ran after "
            + lockWait.toSeconds()
            + " s ([sessions] lock_wait_seconds), so nothing was changed. Try again once "
            + owner
            + " has answered.");
  }
}
