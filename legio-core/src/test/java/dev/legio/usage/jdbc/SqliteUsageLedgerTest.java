package dev.legio.usage.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.log.jdbc.ShortBusyWaitSqlite;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteUsageLedgerTest extends UsageLedgerContract {
  @TempDir Path dir;

  @Override
  protected LegioStore open(MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 4096, false, 4, clock));
  }

  /**
   * Every write runs on the log's writer, which alone tells a transaction the database refused to
   * begin: a ledger writing on pool connections could not tell it, so none is made.
   */
  @Test
  void aLedgerIsRefusedWithoutTheLogsWriterSayingWhatToPass() {
    try (ShortBusyWaitSqlite db =
        new ShortBusyWaitSqlite(dir.resolve("castra/praetorium.db"), Duration.ofMillis(200))) {
      assertThatThrownBy(() -> new JdbcUsageLedger(db.pool(), db.values(), null))
          .isInstanceOf(NullPointerException.class)
          .hasMessageContaining("pass the message log's shared writer");
    }
  }
}
