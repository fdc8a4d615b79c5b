package dev.legio.app.server;

import dev.legio.agents.AgentConfigException;
import dev.legio.agents.AgentProfile;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.log.Names;
import dev.legio.session.ChannelListing;
import dev.legio.session.StatusReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/status}: every agent (legatus first) and the channels {@link ChannelListing}
 * picks ({@code ?channels=open|all}, {@code ?limit=N}: by default the open ones, at most 100), with
 * {@code channel_counts} (how many channels have a record, are open, are listed), as {@code legio
 * status} shows them (each agent with the {@code model} its prompt file names, null for the
 * back-end's default), the back-end, the prompt files that could not be read, and the session rows
 * that could not be read ({@code damaged_sessions}, whatever the listing; such an agent's {@code
 * session} is {@code damaged}), which hide no one.
 */
final class StatusEndpoint implements Endpoint {
  private final ServerParts parts;

  private final Supplier<List<GatewayHealth>> gateways;

  StatusEndpoint(ServerParts parts, Supplier<List<GatewayHealth>> gateways) {
    this.parts = parts;
    this.gateways = gateways;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    StatusReport report = parts.engine().status(listing(exchange));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(
        "agents",
        report.agents().stream()
            .map(
                s ->
                    withRebuilds(
                        withModel(damagedOrNot(Views.status(s), report), s.owner()), s.owner()))
            .toList());
    ChannelListing.Listed channels = report.channels();
    out.put(
        "channels",
        channels.channels().stream().map(s -> withRebuilds(Views.status(s), s.owner())).toList());
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("all", channels.all());
    counts.put("open", channels.open());
    counts.put("listed", channels.listed());
    out.put("channel_counts", counts);
    out.put("backend", parts.engine().backend().displayName());
    out.put("problems", parts.agents().problems());
    out.put("gateways", gateways.get().stream().map(StatusEndpoint::gateway).toList());
    out.put("damaged_sessions", report.damagedSessions().stream().map(Views::damaged).toList());
    exchange.json(200, out);
  }

  /** {@code ?channels=open|all&limit=N}: which channels to list ({@link ChannelListing}). */
  private static ChannelListing listing(ApiExchange exchange) {
    String scope =
        exchange.query("channels", "'open' or 'all', or leave it out for the open channels");
    ChannelListing.Scope which;
    try {
      which = scope == null ? ChannelListing.Scope.OPEN : ChannelListing.Scope.of(scope);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "query parameter 'channels' must be 'open' (the default: a turn running, or used within"
              + " the channel idle timeout) or 'all'");
    }
    int limit =
        (int)
            exchange.queryLong("limit", ChannelListing.DEFAULT_LIMIT, 1, ChannelListing.MAX_LIMIT);
    return new ChannelListing(which, limit);
  }

  /** The view with {@code session} {@code damaged} when the owner's row is one of the damaged. */
  private static Map<String, Object> damagedOrNot(Map<String, Object> view, StatusReport report) {
    if (!report.damaged(String.valueOf(view.get("owner")))) {
      return view;
    }
    Map<String, Object> out = new LinkedHashMap<>(view);
    out.put("session", "damaged");
    return out;
  }

  /**
   * The view with {@code rebuilds_by_reason}: the owner's rebuilds by reason since this node
   * started ({@code {"idle timeout": 2}}; the stored total is {@code rebuilds}).
   */
  private Map<String, Object> withRebuilds(Map<String, Object> view, String owner) {
    Map<String, Object> out = new LinkedHashMap<>(view);
    Map<String, Long> byReason = new LinkedHashMap<>();
    parts
        .engine()
        .rebuildCountsOf(owner)
        .forEach((reason, n) -> byReason.put(reason.description(), n));
    out.put("rebuilds_by_reason", byReason);
    return out;
  }

  private static Map<String, Object> gateway(GatewayHealth g) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", g.name());
    out.put("state", g.stateName());
    out.put("detail", g.detail());
    out.put("messages_in", g.messagesIn());
    out.put("messages_out", g.messagesOut());
    return out;
  }

  /**
   * The agent's view with {@code model}: the model its {@code prompt.md} names, or null for the
   * back-end's default (also when the file cannot be read: {@code problems} says why).
   */
  private Map<String, Object> withModel(Map<String, Object> view, String agent) {
    Map<String, Object> out = new LinkedHashMap<>(view);
    String model = null;
    try {
      Optional<AgentProfile> profile =
          agent.equals(Names.LEGATUS)
              ? Optional.of(parts.agents().legatus())
              : parts.agents().centurio(agent);
      model = profile.map(AgentProfile::model).orElse(null);
    } catch (AgentConfigException e) {
      // reported in "problems"
    }
    out.put("model", model);
    return out;
  }
}
