package dev.legio.app.text;

import dev.legio.usage.Grouping;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageTotal;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Each session's cost so far, for the COST column of {@code legio status} and {@code /status}. */
public final class SessionCosts {
  private SessionCosts() {}

  /** Session id (as text) → its turns in the ledger, added up. */
  public static Map<String, UsageTotal> of(UsageLedger usage) {
    Map<String, UsageTotal> costs = new HashMap<>();
    for (UsageTotal t : usage.report(Instant.EPOCH, Grouping.SESSION).rows()) {
      costs.put(t.group(), t);
    }
    return costs;
  }
}
