package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.errors.Quoted;
import dev.legio.log.Names;
import dev.legio.memoria.LegatusMemory;
import dev.legio.memoria.MemoryEntry;
import dev.legio.memoria.MemoryException;
import dev.legio.memoria.SearchHit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memoria an operator reaches with the legatus's rights beyond reading and publishing ({@link
 * MemoriaEndpoint}): revoking an edictum, every agent's commentarii, and {@code search_memoria}
 * over all of it.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@code POST /memoria/edicta/{name}/revoke} {@code {"reason"}} (optional) revokes an edictum
 *       in force: it stays readable, marked revoked by the legatus; 404 when there is no such
 *       edictum, 409 when it was revoked already.
 *   <li>{@code GET /memoria/commentarii/{agent}} lists an agent's commentarii, {@code
 *       /memoria/commentarii/{agent}/{name}} reads one; 404 for an unknown agent or entry.
 *   <li>{@code GET /memoria/search?q=WORDS&limit=N} (default 20, at most 200): entries of edicta,
 *       acta and commentarii holding every word, case ignored, as {@code search_memoria} finds them
 *       for the legatus; 400 for an empty query.
 * </ul>
 */
final class LegatusMemoriaEndpoint {
  private final ServerParts parts;

  LegatusMemoriaEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  private LegatusMemory memory() {
    return parts.memoria().forLegatus(Names.LEGATUS);
  }

  void revoke(ApiExchange exchange) throws Exception {
    String name = exchange.pathParam("name");
    JsonNode body = exchange.jsonBodyOrEmpty();
    String reason = Bodies.optionalString(body, "reason", "reason");
    boolean known = memory().listEdicta(true).stream().anyMatch(e -> e.name().equals(name));
    if (!known) {
      throw ApiException.notFound(
          "no edictum named '" + Quoted.of(name) + "'; GET /api/v1/memoria/edicta lists them");
    }
    MemoryEntry entry;
    try {
      entry = memory().revokeEdictum(name, reason);
    } catch (MemoryException e) {
      throw e.getMessage().contains("already revoked")
          ? new ApiException(409, e.getMessage())
          : ApiException.badRequest(e.getMessage());
    }
    exchange.json(200, Views.memoryEntry(entry));
  }

  void listCommentarii(ApiExchange exchange) throws Exception {
    String agent = exchange.pathParam("agent");
    List<MemoryEntry> entries;
    try {
      entries = memory().listCommentarii(agent);
    } catch (MemoryException e) {
      throw ApiException.notFound(e.getMessage());
    }
    exchange.json(
        200,
        Map.of("agent", agent, "commentarii", entries.stream().map(Views::memorySummary).toList()));
  }

  void readCommentarium(ApiExchange exchange) throws Exception {
    String agent = exchange.pathParam("agent");
    String name = exchange.pathParam("name");
    List<MemoryEntry> entries;
    try {
      entries = memory().listCommentarii(agent);
    } catch (MemoryException e) {
      throw ApiException.notFound(e.getMessage());
    }
    if (entries.stream().noneMatch(e -> e.name().equals(name))) {
      throw ApiException.notFound(
          "no commentarium named '"
              + Quoted.of(name)
              + "' of "
              + agent
              + "; GET /api/v1/memoria/commentarii/"
              + agent
              + " lists them");
    }
    try {
      exchange.json(200, Views.memoryEntry(memory().readCommentarium(agent, name)));
    } catch (MemoryException e) {
      throw ApiException.badRequest(e.getMessage());
    }
  }

  void search(ApiExchange exchange) throws Exception {
    String query = exchange.query("q", "one or more words, e.g. ?q=north+road");
    if (query == null || query.isBlank()) {
      throw ApiException.badRequest(
          "query parameter 'q' is "
              + (query == null ? "missing" : "blank (only spaces)")
              + ": give one or more words, e.g. ?q=north+road");
    }
    int limit = (int) exchange.queryLong("limit", 20, 1, 200);
    List<SearchHit> hits;
    try {
      hits = memory().search(query, limit);
    } catch (MemoryException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    List<Map<String, Object>> out =
        hits.stream()
            .map(
                h -> {
                  Map<String, Object> hit = new LinkedHashMap<>(Views.memorySummary(h.entry()));
                  hit.put("agent", h.entry().centurio());
                  hit.put("snippet", h.snippet());
                  return hit;
                })
            .toList();
    exchange.json(200, Map.of("query", query, "hits", out));
  }
}
