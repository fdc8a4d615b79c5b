package dev.legio.app.server;

import dev.legio.session.DamagedSession;
import dev.legio.session.SessionListing;
import dev.legio.session.SessionRecord;
import dev.legio.transcript.TranscriptException;
import dev.legio.transcript.TranscriptInfo;
import dev.legio.transcript.TranscriptStarts;
import dev.legio.transcript.TranscriptStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pages of {@code GET /api/v1/sessions} and {@code legio sessions list}: each owner's current
 * session record and every other session that left a transcript, in one order.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Order: newest first by a session's start ({@code started_at}), then by session id, both
 *       descending. A session's start is its transcript's ({@link TranscriptStore#starts}), which
 *       never changes once written; a current session with no transcript yet starts at its record's
 *       {@code created_at}.
 *   <li>A session's place in the order never moves over its life. The transcript Legio begins for a
 *       session carries its record's {@code created_at} as its start (its first line, {@code
 *       agent-name}), so a current session starts at the same instant before its first turn is
 *       written and after, and keeps it when it ends and only its transcript is left; a fork's
 *       transcript and record are made with the same instant. A session with a transcript keeps its
 *       transcript's start when it becomes current again ({@code legio chat --resume}), whatever
 *       its new record's {@code created_at}. A transcript Legio did not write (the Claude Code
 *       CLI's, one written before Legio timed its first line) starts at its first conversation
 *       line.
 *   <li>A page holds up to {@code limit} sessions after the cursor ({@link SessionsCursor}; none:
 *       from the newest). {@code next_cursor} names its last one; it is null when no session
 *       follows, and only then is the listing at its end.
 *   <li>Paging is stable: a session added while a client pages starts after every session it has
 *       read, so it is not on its later pages and moves none of them; a session whose first turn is
 *       written, or that ends, meanwhile stays where it was: no session repeats and none is
 *       skipped.
 *   <li>A page reads the session rows and each transcript's start only ({@link
 *       TranscriptStore#starts}: the first lines of each), then loads the transcripts of the ended
 *       sessions on the page for their counts, not every transcript.
 *   <li>What the listing left out is named on the first page (no cursor): {@code
 *       skipped_transcripts} (an entry of the transcripts folder that is not a regular file, a
 *       transcript whose start cannot be read) and {@code damaged_sessions} (rows that cannot be
 *       read as a record). A transcript that cannot be loaded when its page is read is named in
 *       that page's {@code skipped_transcripts} instead of listed, and one deleted meanwhile is
 *       left out: a page may hold fewer than {@code limit} sessions.
 * </ul>
 */
public final class SessionPages {
  /**
   * The most sessions a page holds: {@code GET /api/v1/sessions?limit=} and {@code legio sessions
   * list --limit} refuse more.
   */
  public static final int MAX_LIMIT = 1_000;

  private SessionPages() {}

  /**
   * One page.
   *
   * @param sessions its sessions, in the order
   * @param next the cursor of the page after it; null when no session follows
   * @param skipped for people: what was left out, one line each
   * @param damaged the session rows that cannot be read as a record (on the first page only)
   */
  public record Page(
      List<Listed> sessions,
      SessionsCursor next,
      List<String> skipped,
      List<DamagedSession> damaged) {
    public Page {
      sessions = List.copyOf(sessions);
      skipped = List.copyOf(skipped);
      damaged = List.copyOf(damaged);
    }
  }

  /**
   * A session on a page: an owner's current one ({@code record}; its transcript not loaded) or an
   * ended one ({@code transcript}).
   *
   * @param key its place in the order: its start and id
   * @param record its record while it is an owner's current session; null once it ended
   * @param transcript its transcript's listing when it ended; null for a current session
   */
  public record Listed(SessionsCursor key, SessionRecord record, TranscriptInfo transcript) {}

  /**
   * The page after {@code after} (null: the first), of at most {@code limit} sessions, of the
   * session records {@code records} and the transcripts of {@code transcripts}.
   */
  public static Page page(
      SessionListing records, TranscriptStore transcripts, SessionsCursor after, int limit) {
    TranscriptStarts starts = transcripts.starts();
    Map<String, Instant> started = new HashMap<>();
    for (TranscriptStarts.Start s : starts.sessions()) {
      started.put(s.sessionId(), s.started());
    }
    Map<String, SessionRecord> current = new HashMap<>();
    List<SessionsCursor> order = new ArrayList<>();
    for (SessionRecord r : records.records()) {
      String id = r.sessionId().toString();
      current.put(id, r);
      order.add(new SessionsCursor(started.getOrDefault(id, r.createdAt()), id));
    }
    for (TranscriptStarts.Start s : starts.sessions()) {
      if (!current.containsKey(s.sessionId())) {
        order.add(new SessionsCursor(s.started(), s.sessionId()));
      }
    }
    if (after != null) {
      order.removeIf(k -> SessionsCursor.NEWEST_FIRST.compare(k, after) <= 0);
    }
    order.sort(SessionsCursor.NEWEST_FIRST);
    List<Listed> out = new ArrayList<>();
    List<String> skipped = new ArrayList<>(after == null ? starts.skipped() : List.of());
    List<SessionsCursor> page = order.subList(0, Math.min(limit, order.size()));
    for (SessionsCursor k : page) {
      SessionRecord record = current.get(k.sessionId());
      if (record != null) {
        out.add(new Listed(k, record, null));
        continue;
      }
      try {
        TranscriptInfo info = transcripts.info(k.sessionId());
        if (info != null) {
          out.add(new Listed(k, null, info));
        }
      } catch (TranscriptException e) {
        skipped.add("session " + k.sessionId() + " left out: " + e.getMessage());
      }
    }
    return new Page(
        out,
        order.size() > limit ? page.get(page.size() - 1) : null,
        skipped,
        after == null ? records.damaged() : List.of());
  }

  /** The page as {@code GET /api/v1/sessions} answers it. */
  static Map<String, Object> json(Page page) {
    List<Map<String, Object>> sessions = new ArrayList<>();
    for (Listed l : page.sessions()) {
      if (l.record() != null) {
        Map<String, Object> s = Views.record(l.record());
        s.put("started_at", Views.time(l.key().started()));
        sessions.add(s);
      } else {
        sessions.add(ended(l.transcript(), l.key().started()));
      }
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("sessions", sessions);
    answer.put("next_cursor", page.next() == null ? null : page.next().encode());
    answer.put("skipped_transcripts", page.skipped());
    answer.put("damaged_sessions", page.damaged().stream().map(Views::damaged).toList());
    return answer;
  }

  /** A session that left a transcript and is no owner's current one. */
  private static Map<String, Object> ended(TranscriptInfo i, Instant started) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("session_id", i.sessionId());
    s.put("owner", i.owner());
    s.put("state", "ended");
    s.put("messages", i.messages());
    s.put("created_at", Views.time(i.created()));
    s.put("last_active_at", Views.time(i.lastModified()));
    s.put("started_at", Views.time(started));
    return s;
  }
}
