package dev.legio.longterm;

import dev.legio.transcript.TranscriptInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The gates a consolidation passes before it changes anything, checked in this order, cheapest
 * first; the first that is closed stops the run ({@link ConsolidationResult.Skipped}):
 *
 * <ol>
 *   <li>{@link ConsolidationGate#TIME time}: at least {@code dream_min_hours} since the last run
 *       ({@code last_consolidated_at} of {@code .consolidation_state.json}); never run: open.
 *   <li>{@link ConsolidationGate#SESSIONS sessions}: at least {@code dream_min_sessions} of the
 *       agent's transcripts (by owner) modified after the last run (all of them when never run).
 *   <li>{@link ConsolidationGate#LOCK lock}: {@link ConsolidationLock} taken; a live lock refuses
 *       (naming its holder), a stale one or one whose holder has ended is taken over (with a
 *       warning).
 * </ol>
 *
 * {@code force} opens the time and sessions gates, never the lock. Time is handed in; each check
 * answers with the gate and the reason {@code legio memory dream} shows, or empty when open.
 */
public final class ConsolidationGates {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private final int minHours;
  private final int minSessions;
  private final Duration lockStale;

  /**
   * @param minHours {@code dream_min_hours}
   * @param minSessions {@code dream_min_sessions}
   * @param lockStale {@code dream_lock_stale_minutes}: when a lock is stale
   */
  public ConsolidationGates(int minHours, int minSessions, Duration lockStale) {
    this.minHours = minHours;
    this.minSessions = minSessions;
    this.lockStale = lockStale;
  }

  /** A closed gate and why, as the user reads it. */
  public record Closed(ConsolidationGate gate, String reason) {}

  /** The time gate, for a last run at {@code last} (null: never). */
  public Optional<Closed> time(Instant last, Instant now, boolean force) {
    if (force || last == null) {
      return Optional.empty();
    }
    Duration since = Duration.between(last, now);
    if (since.compareTo(Duration.ofHours(minHours)) >= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new Closed(
            ConsolidationGate.TIME, "last run " + ago(since) + " ago; needs " + minHours + " h"));
  }

  /** The agent's sessions whose transcripts changed after {@code since} (all when null). */
  public static List<TranscriptInfo> changedSessions(
      List<TranscriptInfo> all, String agent, Instant since) {
    List<TranscriptInfo> out = new ArrayList<>();
    for (TranscriptInfo info : all) {
      if (agent.equals(info.owner()) && (since == null || info.lastModified().isAfter(since))) {
        out.add(info);
      }
    }
    return out;
  }

  /** The sessions gate, for {@code changed} sessions since a last run at {@code last}. */
  public Optional<Closed> sessions(int changed, Instant last, boolean force) {
    if (force || changed >= minSessions) {
      return Optional.empty();
    }
    return Optional.of(
        new Closed(
            ConsolidationGate.SESSIONS,
            changed
                + (changed == 1 ? " session" : " sessions")
                + " changed"
                + (last == null ? "" : " since the last run")
                + "; needs "
                + minSessions));
  }

  /**
   * The lock gate, closed by a live lock: says since when, which process holds it, and that the
   * file may be deleted when that process is known to be gone.
   */
  public Closed held(ConsolidationLock.Held held, Instant now) {
    return new Closed(
        ConsolidationGate.LOCK,
        "another consolidation is running since "
            + time(held.since())
            + " ("
            + ago(Duration.between(held.since(), now))
            + " ago, "
            + (held.holder() == null
                ? "by a process its lock does not name"
                : "by " + held.holder())
            + "); its lock "
            + held.file()
            + " turns stale when not renewed for "
            + lockStale.toMinutes()
            + " min; if that process is known to be gone, delete the file");
  }

  /** The warning of a run that took over a lock, stale or left by a process that ended. */
  public static String tookOver(ConsolidationLock.Replaced replaced) {
    if (replaced.holderEnded()) {
      return "took over the lock taken "
          + time(replaced.since())
          + " by "
          + replaced.holder()
          + ": that process has ended (killed or crashed)";
    }
    return "took over a stale lock from "
        + time(replaced.since())
        + " (a run that crashed or hung"
        + (replaced.holder() == null ? "" : ": " + replaced.holder())
        + ")";
  }

  static String time(Instant at) {
    return TIME.format(at);
  }

  /** A duration as the gates show it: whole hours from one hour, else whole minutes. */
  static String ago(Duration d) {
    if (d.isNegative()) {
      return "0 min";
    }
    if (d.toHours() >= 1) {
      return d.toHours() + " h";
    }
    return d.toMinutes() + " min";
  }
}
