package dev.legio.app.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Ends the MCP sessions over HTTP that their clients left without ending them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Clients often leave without the {@code DELETE} that ends a session (the Claude Code CLI
 *       never sends it, anthropics/claude-code#56456: one session left behind per run), so without
 *       this a caller's sessions, each with the events of its last streams, would pile up for the
 *       server's life.
 *   <li>A session is in use while one of its requests is answered; a connection carrying one of its
 *       streams (a {@code GET} stream a client listens on, a tool call's answer) is such a request.
 *       Otherwise it is idle since the last of them ended. A session in use is never ended.
 *   <li>When a caller opens a session, its sessions idle for longer than {@link #IDLE_LIMIT} are
 *       ended, and while it has more than {@link #MAX_SESSIONS} the longest idle are ended. The
 *       session just opened is never one of them.
 *   <li>A request naming an ended session gets 404, after which the client opens a new session, as
 *       MCP's transport says; the tools keep nothing per session.
 * </ul>
 */
final class SessionRetention {
  static final Duration IDLE_LIMIT = Duration.ofHours(24);
  static final int MAX_SESSIONS = 256;

  private final long idleLimitNanos;
  private final int maxSessions;

  SessionRetention(Duration idleLimit, int maxSessions) {
    if (maxSessions < 1) {
      throw new IllegalArgumentException("maxSessions must be at least 1");
    }
    this.idleLimitNanos = idleLimit.toNanos();
    this.maxSessions = maxSessions;
  }

  static SessionRetention defaults() {
    return new SessionRetention(IDLE_LIMIT, MAX_SESSIONS);
  }

  /**
   * The ids of the sessions to end now, the longest idle first.
   *
   * @param sessions a caller's sessions by id
   * @param opened the id of the session just opened (kept)
   * @param now {@link System#nanoTime()}, on the clock the sessions' idle times are on
   */
  List<String> toEnd(Map<String, HttpSession> sessions, String opened, long now) {
    record Idle(String id, long since) {}
    List<Idle> idle = new ArrayList<>();
    for (Map.Entry<String, HttpSession> e : sessions.entrySet()) {
      HttpSession s = e.getValue();
      if (!e.getKey().equals(opened) && !s.inUse()) {
        idle.add(new Idle(e.getKey(), s.idleSince()));
      }
    }
    idle.sort(Comparator.comparingLong(Idle::since));
    List<String> end = new ArrayList<>();
    int left = sessions.size();
    for (Idle i : idle) {
      if (now - i.since() > idleLimitNanos || left > maxSessions) {
        end.add(i.id());
        left--;
      }
    }
    return end;
  }
}
