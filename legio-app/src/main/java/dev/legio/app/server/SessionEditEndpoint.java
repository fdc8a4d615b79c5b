package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.errors.Quoted;
import dev.legio.log.Names;
import dev.legio.session.SessionBusyException;
import dev.legio.transcript.NoSuchTranscriptException;
import dev.legio.transcript.SessionHistoryEditor;
import dev.legio.transcript.SessionHistoryEditor.Point;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Rewind and fork over the API, with the rules of {@link SessionHistoryEditor} (the same as {@code
 * legio sessions rewind|fork}):
 *
 * <ul>
 *   <li>{@code POST /api/v1/sessions/{id}/rewind} with {@code {"to": "ENTRY_UUID"}} (keep up to
 *       that transcript entry) or {@code {"last": N}} (take back the last N turns; an empty body:
 *       the last one).
 *   <li>{@code POST /api/v1/sessions/{id}/fork} with optionally {@code {"at": "ENTRY_UUID"}}
 *       (default: the whole session) and {@code {"owner": "NAME"}} (default: the original's).
 *   <li>Both answer {@code {"session_id", "owner", "entries_removed", "turns_removed",
 *       "backend_session_id"}}: the session that continues from the point. An unknown session is
 *       404; a malformed body, an unknown entry or a bad name is 400 saying what to fix; a turn of
 *       the owner still running after {@code lock_wait} is 409, with nothing changed.
 * </ul>
 */
final class SessionEditEndpoint {
  private final ServerParts parts;

  SessionEditEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  void rewind(ApiExchange exchange) throws Exception {
    String id = sessionId(exchange);
    JsonNode body = exchange.jsonBodyOrEmpty();
    String to = Bodies.optionalString(body, "to", "to");
    JsonNode last = body.get("last");
    if (to != null && last != null && !last.isNull()) {
      throw ApiException.badRequest(
          "send either 'to' (an entry's uuid) or 'last' (turns), not both");
    }
    Point point;
    if (to != null) {
      point = new Point.AtEntry(entry(to, "to"));
    } else {
      point = new Point.LastTurns(Bodies.optionalInt(body, "last", 1, 1, "a number of turns"));
    }
    // It may wait for a turn of the session's owner: off the API's threads (HandOff).
    exchange.afterEngine(
        () -> edit(() -> parts.historyEditor().rewind(id, point)),
        r -> exchange.json(200, view(r)));
  }

  void fork(ApiExchange exchange) throws Exception {
    String id = sessionId(exchange);
    JsonNode body = exchange.jsonBodyOrEmpty();
    String at = Bodies.optionalString(body, "at", "at");
    String owner = Bodies.optionalString(body, "owner", "owner");
    if (owner != null && !Names.isValid(owner)) {
      throw ApiException.badRequest(
          "field 'owner' ('" + Quoted.of(owner) + "') is not a name: use an agent's name");
    }
    Point point = at == null ? new Point.End() : new Point.AtEntry(entry(at, "at"));
    exchange.afterEngine(
        () -> edit(() -> parts.historyEditor().fork(id, point, owner)),
        r -> exchange.json(200, view(r)));
  }

  private static String sessionId(ApiExchange exchange) {
    String id = exchange.pathParam("id");
    try {
      UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "'" + Quoted.of(id) + "' is not a session id: use one from GET /api/v1/sessions");
    }
    return id;
  }

  private static UUID entry(String text, String field) {
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "field '"
              + field
              + "' ('"
              + Quoted.of(text)
              + "') is not an entry's uuid: take one from GET /api/v1/sessions/{id}");
    }
  }

  /**
   * Runs {@code edit}, turning the editor's refusals into 404 (no such session) or 400, and a turn
   * of the owner that outlasted {@code lock_wait} into 409.
   */
  private static SessionHistoryEditor.Result edit(Supplier<SessionHistoryEditor.Result> edit) {
    try {
      return edit.get();
    } catch (SessionBusyException e) {
      throw new ApiException(409, e.getMessage());
    } catch (IllegalArgumentException e) {
      if (e.getCause() instanceof NoSuchTranscriptException) {
        throw ApiException.notFound(e.getMessage());
      }
      throw ApiException.badRequest(e.getMessage());
    }
  }

  private static Map<String, Object> view(SessionHistoryEditor.Result r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("session_id", r.sessionId().toString());
    out.put("owner", r.owner());
    out.put("entries_removed", r.entriesRemoved());
    out.put("turns_removed", r.turnsRemoved());
    out.put("backend_session_id", r.backendSessionId());
    return out;
  }
}
