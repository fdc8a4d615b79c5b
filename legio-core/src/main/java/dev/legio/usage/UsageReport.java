package dev.legio.usage;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.List;

/**
 * The usage since a time, one row per group, and the total: what {@code legio usage} prints and
 * {@code GET /api/v1/usage} returns. Plain values, ready to serialise with Jackson (no module
 * needed: {@code since} is written as ISO-8601 text, groupings by their label).
 *
 * @param since the turns counted ended at or after this time
 * @param by what the rows are
 * @param rows one per group, ordered by group (groups without a value last)
 * @param total all the rows added up
 */
public record UsageReport(
    @JsonSerialize(using = ToStringSerializer.class) Instant since,
    Grouping by,
    List<UsageTotal> rows,
    UsageTotal total) {
  public UsageReport {
    rows = List.copyOf(rows);
  }

  /** A report of {@code rows}, with their total. */
  public static UsageReport of(Instant since, Grouping by, List<UsageTotal> rows) {
    UsageTotal total = UsageTotal.empty("total");
    for (UsageTotal row : rows) {
      total = total.plus(row, "total");
    }
    return new UsageReport(since, by, rows, total);
  }
}
