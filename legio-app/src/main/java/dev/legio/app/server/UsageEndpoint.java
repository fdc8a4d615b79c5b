package dev.legio.app.server;

import dev.legio.config.Durations;
import dev.legio.errors.Quoted;
import dev.legio.usage.Grouping;
import dev.legio.usage.UsageReport;
import dev.legio.usage.UsageTotal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/v1/usage?since=7d&by=agent}: the usage ledger's turns that ended within {@code
 * since} (default 7 days; {@code 30d}, {@code 12h} or ISO-8601), added up by {@code by} ({@code
 * agent} by default; {@code session}, {@code key}, {@code task-run}, {@code model}, {@code day}),
 * with the total: the same report as {@code legio usage}. The age is read and counted back as
 * {@link Durations} says, as {@code legio usage --since} reads it: longer than 999999999 days is
 * 400, and an age reaching past 1970 counts everything.
 */
final class UsageEndpoint implements Endpoint {
  static final Duration DEFAULT_SINCE = Duration.ofDays(7);

  private final ServerParts parts;

  UsageEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    Duration since = DEFAULT_SINCE;
    String sinceText =
        exchange.query("since", "an age such as 30d, 12h or P7D, or leave it out for 7d");
    if (sinceText != null) {
      try {
        since = Durations.parse(sinceText);
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("query parameter 'since': " + Quoted.message(e.getMessage()));
      }
    }
    Grouping by = Grouping.AGENT;
    String byText =
        exchange.query(
            "by", "agent, session, key, task-run, model or day, or leave it out for agent");
    if (byText != null) {
      try {
        by = Grouping.ofLabel(byText);
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("query parameter 'by': " + Quoted.message(e.getMessage()));
      }
    }
    Instant from = Durations.before(parts.clock().instant(), since);
    UsageReport report = parts.usage().report(from, by);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("since", report.since().toString());
    body.put("by", report.by().label());
    body.put("rows", report.rows().stream().map(UsageEndpoint::total).toList());
    body.put("total", total(report.total()));
    exchange.json(200, body);
  }

  /** One row: its group, turns, tokens and cost ({@code null} when no turn of it had a price). */
  private static Map<String, Object> total(UsageTotal t) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("group", t.group());
    row.put("turns", t.turns());
    row.put("input_tokens", t.tokens().input());
    row.put("output_tokens", t.tokens().output());
    row.put("cache_read_tokens", t.tokens().cacheRead());
    row.put("cache_write_tokens", t.tokens().cacheWrite());
    row.put("cost_usd", t.costUsd());
    row.put("unknown_cost_turns", t.unknownCostTurns());
    row.put("failed_turns", t.failedTurns());
    return row;
  }
}
