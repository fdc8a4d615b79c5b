package dev.legio.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which channel sessions a status lists ({@code GET /api/v1/status}, {@code legio status}, the
 * operator's {@code /status}): a chat platform leaves a record for every chat it ever saw, kept for
 * its time to live, and thousands of them made every status answer list them all.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A channel is <em>open</em> while a turn of it runs (on any node), or while its session is
 *       active and was last used within {@code [channels] idle_timeout_minutes}: after that the
 *       channel cleanup closes it on the node that holds it (a record left active by a node that
 *       stopped counts as idle too).
 *   <li>{@link Scope#OPEN} (the default) lists the open channels; {@link Scope#ALL} every channel
 *       with a record. Either way at most {@code limit} are listed, the most recently used first.
 *   <li>The channels not listed are counted: {@link Listed} says how many channels have a record,
 *       how many are open and how many are listed, so a reader knows what was left out.
 * </ul>
 */
public record ChannelListing(Scope scope, int limit) {
  /** How many channels are listed unless told otherwise. */
  public static final int DEFAULT_LIMIT = 100;

  /** The most channels one status lists. */
  public static final int MAX_LIMIT = 10_000;

  /** The open channels, at most {@link #DEFAULT_LIMIT}. */
  public static final ChannelListing DEFAULT = new ChannelListing(Scope.OPEN, DEFAULT_LIMIT);

  /** Which channels are listed. */
  public enum Scope {
    /** The open channels: a turn running, or an active session used within the idle timeout. */
    OPEN,
    /** Every channel with a record. */
    ALL;

    /** The word in a query or an option: {@code open}, {@code all}. */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The scope {@code word} names; an {@link IllegalArgumentException} saying the words else. */
    public static Scope of(String word) {
      for (Scope s : values()) {
        if (s.word().equals(word)) {
          return s;
        }
      }
      throw new IllegalArgumentException(
          "channels must be 'open' (the default: a turn running, or used within the channel idle"
              + " timeout) or 'all', not '"
              + dev.legio.errors.Quoted.of(String.valueOf(word))
              + "'");
    }
  }

  public ChannelListing {
    Objects.requireNonNull(scope, "scope");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException(
          "the channel limit must be a whole number from 1 to " + MAX_LIMIT + ", not " + limit);
    }
  }

  /**
   * The channels listed, and how many there are.
   *
   * @param channels the channels listed, the most recently used first
   * @param all how many channels have a record
   * @param open how many of them are open
   */
  public record Listed(List<SessionStatus> channels, int all, int open) {
    public Listed {
      channels = List.copyOf(channels);
    }

    /** How many are listed. */
    public int listed() {
      return channels.size();
    }
  }

  /** Picks from {@code channels} (every channel's status) as the rules say. */
  public Listed select(List<SessionStatus> channels, Instant now, Duration idleTimeout) {
    List<SessionStatus> open = channels.stream().filter(s -> isOpen(s, now, idleTimeout)).toList();
    List<SessionStatus> listed =
        (scope == Scope.OPEN ? open : channels)
            .stream().sorted(MOST_RECENTLY_USED_FIRST).limit(limit).toList();
    return new Listed(listed, channels.size(), open.size());
  }

  /** True when {@code channel} is open at {@code now}: see the rules. */
  public static boolean isOpen(SessionStatus channel, Instant now, Duration idleTimeout) {
    if (Activity.WORKING.label().equals(channel.activity())) {
      return true;
    }
    SessionRecord r = channel.record();
    return r != null
        && r.active()
        && Duration.between(r.lastActiveAt(), now).compareTo(idleTimeout) <= 0;
  }

  private static final Comparator<SessionStatus> MOST_RECENTLY_USED_FIRST =
      Comparator.comparing(
              (SessionStatus s) -> s.record() == null ? Instant.MIN : s.record().lastActiveAt())
          .reversed()
          .thenComparing(SessionStatus::owner);
}
