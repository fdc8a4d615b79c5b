package dev.legio.longterm;

import java.time.DateTimeException;
import java.time.Instant;

/**
 * What a {@code .consolidation_lock} file holds, one item a line:
 *
 * <pre>
 * 1764240000
 * renewed 1764240020
 * token 5d0c…
 * host castra-1
 * pid 4242
 * started 2026-11-27T10:39:58.120Z
 * </pre>
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The first line is the Unix time (seconds) the lock was taken, as locks of earlier versions
 *       hold it alone; {@code renewed} is the time of the holder's last heartbeat (the taking time
 *       when there is none). The lock's age counts from {@code renewed}.
 *   <li>{@code token} is the holder's own random token: a lock is still a holder's exactly when the
 *       file holds its token. A lock without one (an earlier version's) is no one's in this run.
 *   <li>{@code host}, {@code pid} and {@code started} name the holding process ({@link
 *       ConsolidationLockHolder}); a lock without them names no holder.
 *   <li>A first line that is not a number gives a content with no time ({@code taken} null): the
 *       caller dates such a lock by the file's modification time. Unknown lines are ignored.
 * </ul>
 */
record ConsolidationLockContent(
    Instant taken, Instant renewed, String token, ConsolidationLockHolder holder) {

  /** The time the lock's age counts from: the last renewal, else the taking; null for none. */
  Instant lastSign() {
    return renewed != null ? renewed : taken;
  }

  /** The same lock renewed at {@code at}. */
  ConsolidationLockContent renewedAt(Instant at) {
    return new ConsolidationLockContent(taken, at, token, holder);
  }

  String render() {
    StringBuilder out = new StringBuilder().append(taken.getEpochSecond()).append('\n');
    if (renewed != null) {
      out.append("renewed ").append(renewed.getEpochSecond()).append('\n');
    }
    out.append("token ").append(token).append('\n');
    if (holder != null) {
      out.append("host ").append(holder.host()).append('\n');
      out.append("pid ").append(holder.pid()).append('\n');
      if (holder.started() != null) {
        out.append("started ").append(holder.started()).append('\n');
      }
    }
    return out.toString();
  }

  static ConsolidationLockContent parse(String text) {
    String[] lines = text.strip().split("\n");
    Instant taken = seconds(lines[0].strip());
    Instant renewed = null;
    String token = null;
    String host = null;
    long pid = -1;
    Instant started = null;
    for (int i = 1; i < lines.length; i++) {
      String[] kv = lines[i].strip().split(" ", 2);
      if (kv.length < 2) {
        continue;
      }
      String value = kv[1].strip();
      switch (kv[0]) {
        case "renewed" -> renewed = seconds(value);
        case "token" -> token = value;
        case "host" -> host = value;
        case "pid" -> pid = number(value);
        case "started" -> started = instant(value);
        default -> {} // a later version's: ignored
      }
    }
    ConsolidationLockHolder holder =
        host == null || host.isEmpty() || pid <= 0
            ? null
            : new ConsolidationLockHolder(host, pid, started);
    return new ConsolidationLockContent(taken, renewed, token, holder);
  }

  private static Instant seconds(String text) {
    long n = number(text);
    try {
      return n < 0 ? null : Instant.ofEpochSecond(n);
    } catch (DateTimeException e) {
      return null;
    }
  }

  private static long number(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeException e) {
      return null;
    }
  }
}
