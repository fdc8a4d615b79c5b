package dev.legio.app.server;

import dev.legio.errors.Quoted;
import dev.legio.log.Names;
import dev.legio.session.Owner;
import dev.legio.session.SessionBusyException;
import dev.legio.session.SessionRecord;
import dev.legio.transcript.NoSuchTranscriptException;
import dev.legio.transcript.Transcript;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The sessions: {@code GET /api/v1/sessions} (each owner's current record and the other sessions
 * that left a transcript, newest first, in pages of {@code ?limit=N} followed with {@code
 * ?cursor=}, as {@link SessionPages} says), {@code GET /api/v1/sessions/{id}} (the record, when it
 * is an owner's current session, and its transcript's entries, paged backwards with {@code
 * ?before=INDEX} and {@code ?limit=N}), and {@code DELETE /api/v1/sessions/{owner}} (a reset, as
 * {@code legio reset}, by {@link dev.legio.session.SessionResets}' rules: an unknown agent, or a
 * channel with no session, is 404).
 */
final class SessionsEndpoint {
  static final int DEFAULT_LIMIT = 100;

  /** The most transcript entries a page of {@code GET /api/v1/sessions/{id}} holds. */
  static final int MAX_LIMIT = 1_000;

  private final ServerParts parts;

  SessionsEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  void list(ApiExchange exchange) throws Exception {
    int limit = (int) exchange.queryLong("limit", DEFAULT_LIMIT, 1, SessionPages.MAX_LIMIT);
    String cursor =
        exchange.query(
            "cursor", "the next_cursor of the page before, or leave it out for the first page");
    SessionsCursor after = cursor == null ? null : SessionsCursor.decode(cursor);
    exchange.json(
        200,
        SessionPages.json(
            SessionPages.page(parts.sessions().listing(), parts.transcripts(), after, limit)));
  }

  void get(ApiExchange exchange) throws Exception {
    String id = exchange.pathParam("id");
    try {
      UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "'" + Quoted.of(id) + "' is not a session id: GET /api/v1/sessions lists them");
    }
    Optional<SessionRecord> record =
        parts.sessions().list().stream()
            .filter(r -> r.sessionId().toString().equals(id))
            .findFirst();
    Transcript transcript;
    try {
      transcript = parts.transcripts().load(id);
    } catch (NoSuchTranscriptException e) {
      transcript = null;
    }
    if (record.isEmpty() && transcript == null) {
      throw ApiException.notFound(
          "no session " + id + " (neither a current record nor a transcript)");
    }
    int total = transcript == null ? 0 : transcript.entries().size();
    long before = exchange.queryLong("before", total, 0, Integer.MAX_VALUE);
    int limit = (int) exchange.queryLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
    int end = (int) Math.min(before, total);
    int start = Math.max(0, end - limit);
    List<Map<String, Object>> entries = new ArrayList<>();
    for (int i = start; i < end; i++) {
      entries.add(Views.transcriptEntry(i, transcript.entries().get(i)));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("session_id", id);
    Transcript loaded = transcript;
    // A lambda, not loaded::owner: that would dereference a transcript not written yet (null).
    out.put("owner", record.map(SessionRecord::owner).orElseGet(() -> loaded.owner()));
    out.put("record", record.map(Views::record).orElse(null));
    out.put("total_entries", total);
    out.put("entries", entries);
    out.put("next_before", start > 0 ? start : null);
    exchange.json(200, out);
  }

  void reset(ApiExchange exchange) throws Exception {
    String owner = exchange.pathParam("owner");
    if (!Names.isValid(owner)) {
      throw ApiException.badRequest(
          "'"
              + Quoted.of(owner)
              + "' is not an agent or a channel: use a name such as vorenus or telegram:123");
    }
    // A reset waits for a turn in progress: it runs on the engine's side of the hand-off.
    exchange.afterEngine(
        () -> {
          try {
            return Dispatch.run(() -> parts.engine().reset(owner));
          } catch (IllegalArgumentException e) {
            // No such agent (the agents listed), or a channel with no session (SessionResets).
            throw Owner.of(owner).isChannel()
                ? ApiException.notFound(e.getMessage())
                : new ApiException(
                    404,
                    e.getMessage(),
                    Map.of("agents", List.copyOf(parts.engine().knownAgents())));
          } catch (SessionBusyException e) {
            throw new ApiException(409, e.getMessage());
          }
        },
        closed -> exchange.json(200, Map.of("owner", owner, "closed", closed)));
  }
}
