package dev.legio.app.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The line a command prints while it waits for a turn: a reset, rewind or fork waits until no turn
 * of the session's owner runs, up to {@code [sessions] lock_wait_seconds}.
 *
 * <p>Rules: when the command is still waiting after {@link #AFTER}, it says so once on standard
 * error, with how long it may wait, so that the wait does not look like a hang; a command done
 * sooner prints nothing, and so does one that found no turn running when it began ({@link #NONE}):
 * it has nothing to wait for, however long its own work takes. A command that waits for the turns
 * of several owners ({@code legio reset all}: every session it closes) names those whose turn ran
 * when it began.
 */
final class WaitNotice implements AutoCloseable {
  /** How long a command waits before it says that it waits. */
  static final Duration AFTER = Duration.ofSeconds(1);

  /** The notice of a command that waits for no turn: it says nothing. */
  static final WaitNotice NONE = new WaitNotice();

  private final CountDownLatch done = new CountDownLatch(1);

  private WaitNotice() {}

  private WaitNotice(String what, Duration upTo, Duration after, PrintWriter err) {
    Thread.ofVirtual()
        .name("legio-wait-notice")
        .start(
            () -> {
              try {
                if (!done.await(after.toNanos(), TimeUnit.NANOSECONDS)) {
                  synchronized (err) {
                    err.println(
                        "legio: waiting for "
                            + what
                            + " to end (up to "
                            + upTo.toSeconds()
                            + " s, [sessions] lock_wait_seconds)...");
                    err.flush();
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
  }

  /** Says on {@code err} that the command waits for {@code what} ("a turn of vorenus"), if so. */
  static WaitNotice forTurn(String what, Duration upTo, PrintWriter err) {
    return new WaitNotice(what, upTo, AFTER, err);
  }

  /**
   * As {@link #forTurnsOf}, saying {@code what} it waits for ("a turn of vorenus") rather than
   * naming the owners.
   */
  static WaitNotice forTurnOf(
      java.util.Set<String> owners,
      dev.legio.session.SessionStore sessions,
      java.time.Instant now,
      String what,
      Duration upTo,
      PrintWriter err) {
    return running(owners, sessions, now).isEmpty() ? NONE : forTurn(what, upTo, err);
  }

  /**
   * As {@link #forTurn}, when a turn of one of {@code owners} runs now (some process holds its
   * lease), naming those whose turn runs ("a turn of pullo", "the turns of pullo, vorenus"); else
   * {@link #NONE}.
   */
  static WaitNotice forTurnsOf(
      java.util.Set<String> owners,
      dev.legio.session.SessionStore sessions,
      java.time.Instant now,
      Duration upTo,
      PrintWriter err) {
    java.util.List<String> running = running(owners, sessions, now);
    if (running.isEmpty()) {
      return NONE;
    }
    return forTurn(
        (running.size() == 1 ? "a turn of " : "the turns of ") + String.join(", ", running),
        upTo,
        err);
  }

  /**
   * Those of {@code owners} whose turn runs {@code now} (some process holds its lease), sorted.
   * {@code now} is on the clock leases are taken on ({@code LegioApp.storeNow()}: on PostgreSQL the
   * database's time), not this machine's: a machine whose clock is off would see a live lease as
   * expired.
   */
  private static java.util.List<String> running(
      java.util.Set<String> owners,
      dev.legio.session.SessionStore sessions,
      java.time.Instant now) {
    java.util.Set<String> leased = sessions.leasedOwners(now);
    return owners.stream().filter(leased::contains).sorted().toList();
  }

  @Override
  public void close() {
    done.countDown();
  }
}
