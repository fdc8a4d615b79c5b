package dev.legio.app.server;

import dev.legio.errors.Quoted;
import dev.legio.log.Names;
import dev.legio.memoria.LegatusMemory;
import dev.legio.memoria.MemoryEntry;
import dev.legio.memoria.MemoryException;
import dev.legio.memoria.MemoryKind;
import java.util.List;
import java.util.Map;

/**
 * Memoria's shared stores: {@code GET /api/v1/memoria/{edicta|acta}} (the entries, revoked edicta
 * too, without their notes), {@code GET /api/v1/memoria/{kind}/{name}} (one entry with its notes)
 * and {@code POST /api/v1/memoria/{kind}/{name}} {@code {"text"}}, which publishes with the rights
 * of the token: an operator publishes as the legatus (edicta and acta). Commentarii are an agent's
 * own and not served.
 *
 * <p>Errors: an unknown store 404; a bad name or empty text 400; an entry that does not exist 404;
 * an edictum name already used 409.
 */
final class MemoriaEndpoint {
  private final ServerParts parts;

  MemoriaEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  private LegatusMemory memory() {
    return parts.memoria().forLegatus(Names.LEGATUS);
  }

  void list(ApiExchange exchange) throws Exception {
    MemoryKind kind = kind(exchange);
    exchange.json(
        200, Map.of(kind.plural(), entries(kind).stream().map(Views::memorySummary).toList()));
  }

  void read(ApiExchange exchange) throws Exception {
    MemoryKind kind = kind(exchange);
    String name = exchange.pathParam("name");
    exchange.json(200, Views.memoryEntry(find(kind, name)));
  }

  void publish(ApiExchange exchange) throws Exception {
    MemoryKind kind = kind(exchange);
    String name = exchange.pathParam("name");
    String text = Bodies.text(exchange.jsonBody(), "text");
    if (kind == MemoryKind.EDICTA && exists(kind, name)) {
      throw new ApiException(
          409, "an edictum named '" + Quoted.of(name) + "' exists; publish under a new name");
    }
    MemoryEntry entry;
    try {
      entry =
          kind == MemoryKind.EDICTA
              ? memory().publishEdictum(name, text)
              : memory().publishActum(name, text);
    } catch (MemoryException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    exchange.json(201, Views.memoryEntry(entry));
  }

  private MemoryEntry find(MemoryKind kind, String name) {
    try {
      return kind == MemoryKind.EDICTA ? memory().readEdictum(name) : memory().readActum(name);
    } catch (MemoryException e) {
      if (!exists(kind, name)) {
        throw ApiException.notFound(
            "no "
                + kind.singular()
                + " named '"
                + Quoted.of(name)
                + "'; GET /api/v1/memoria/"
                + kind.plural()
                + " lists them");
      }
      throw ApiException.badRequest(e.getMessage());
    }
  }

  private boolean exists(MemoryKind kind, String name) {
    return entries(kind).stream().anyMatch(e -> e.name().equals(name));
  }

  private List<MemoryEntry> entries(MemoryKind kind) {
    return kind == MemoryKind.EDICTA ? memory().listEdicta(true) : memory().listActa();
  }

  private static MemoryKind kind(ApiExchange exchange) {
    String text = exchange.pathParam("kind");
    if ("edicta".equals(text)) {
      return MemoryKind.EDICTA;
    }
    if ("acta".equals(text)) {
      return MemoryKind.ACTA;
    }
    throw ApiException.notFound(
        "no memory store '" + Quoted.of(text) + "' here: use edicta or acta");
  }
}
