package dev.legio.app.server;

import dev.legio.errors.Quoted;
import dev.legio.log.Message;
import dev.legio.log.Names;
import dev.legio.session.KnownNames;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/history?viewer=NAME&limit=N&after=SEQ&before=SEQ}: the newest {@code limit}
 * (default 50, at most 1,000) messages {@code viewer} (default caesar) may see with a sequence
 * above {@code after} (default 0) and below {@code before} (default: none), oldest first.
 *
 * <p>Rule: every message is reachable, however long the log. A client pages back with {@code
 * before} set to the lowest sequence it has (until a page comes back empty); without {@code
 * before}, a client that asks with {@code after} after missing more than {@code limit} messages
 * gets the newest ones only, and finds the gap by paging back the same way.
 */
final class HistoryEndpoint implements Endpoint {
  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 1_000;

  /** Who may view the log, as the refusals say it. */
  private static final String VIEWERS =
      "caesar, legatus, an agent or a channel such as telegram:123";

  private final ServerParts parts;

  HistoryEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    String viewer = exchange.query("viewer", VIEWERS + ", or leave it out for caesar");
    viewer = viewer == null ? Names.CAESAR : viewer;
    if (!Names.isValid(viewer)) {
      throw ApiException.badRequest(
          "query parameter 'viewer' ('" + Quoted.of(viewer) + "') is not a name: use " + VIEWERS);
    }
    new KnownNames(parts.agents().agentNames()).viewer(viewer); // 400 naming the known names
    int limit = (int) exchange.queryLong("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
    long after = exchange.queryLong("after", 0, 0, Long.MAX_VALUE);
    long before = exchange.queryLong("before", Long.MAX_VALUE, 1, Long.MAX_VALUE);
    List<Message> messages =
        before == Long.MAX_VALUE
            ? parts.messageLog().visibleTo(viewer, after, limit)
            : parts.messageLog().visibleTo(viewer, after, before, limit);
    exchange.json(200, Map.of("messages", messages.stream().map(Views::message).toList()));
  }
}
