package dev.legio.app.text;

import dev.legio.store.gateway.GatewayReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateways block of {@code legio status}: one line per chat gateway as the serving process last
 * stored it (state, messages in and out, why), for any gateway. A report older than {@link #STALE}
 * says so: the process that wrote it may have stopped.
 */
public final class GatewayTable {
  public static final Duration STALE = Duration.ofMinutes(1);

  private GatewayTable() {}

  /** The block, or empty text when no gateway ever reported. */
  public static String format(List<GatewayReport> reports, Instant now) {
    if (reports.isEmpty()) {
      return "";
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"GATEWAY", "STATE", "IN", "OUT", "REPORTED", "DETAIL"});
    for (GatewayReport r : reports) {
      Duration age = Duration.between(r.reportedAt(), now);
      if (age.isNegative()) {
        age = Duration.ZERO;
      }
      String detail = r.detail();
      if (age.compareTo(STALE) > 0) {
        detail =
            "(no report for "
                + StatusTable.age(age)
                + ": is legio serve running?)"
                + (detail.isEmpty() ? "" : " " + detail);
      }
      rows.add(
          new String[] {
            r.gateway(),
            r.state(),
            String.valueOf(r.messagesIn()),
            String.valueOf(r.messagesOut()),
            StatusTable.age(age) + " ago",
            MessageFormat.safeText(detail).replace("\n", "\\u000a") // one line per gateway
          });
    }
    return Tables.format(rows);
  }
}
