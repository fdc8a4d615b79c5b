package dev.legio.log.jdbc;

import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The log's writer (a real {@link GroupCommitWriter}) on an SQLite file a store has migrated, with
 * a busy wait of the test's choosing instead of the store's 10 s, counting the transactions it
 * begins ({@link CountingDialect}): for tests of what another program holding the file's write lock
 * does to the writer's callers, without waiting 10 s a time. Its {@link #sharedWriter} runs other
 * stores' statements as the log's does.
 */
public final class ShortBusyWaitSqlite implements AutoCloseable {
  private final CountingDialect dialect = new CountingDialect(new SqliteDialect());
  private final SQLiteDataSource dataSource;
  private final GroupCommitWriter writer;

  public ShortBusyWaitSqlite(Path file, Duration busyWait) {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(Math.toIntExact(busyWait.toMillis()));
    dataSource = new SQLiteDataSource(config);
    dataSource.setUrl("jdbc:sqlite:" + file);
    writer = new GroupCommitWriter(dataSource, dialect, Optional::empty);
  }

  /** Connections to the file (with the same busy wait), for reads. */
  public DataSource pool() {
    return dataSource;
  }

  /** How the file stores ids and timestamps. */
  public SqlValues values() {
    return dialect;
  }

  /**
   * The writer's dialect: for this package's tests, to hold the writer's first transaction at its
   * start ({@link CountingDialect#gate}).
   */
  CountingDialect dialect() {
    return dialect;
  }

  /** The write transactions the writer began so far, those the database refused included. */
  public int begins() {
    return dialect.begins.get();
  }

  /** Runs statements on the writer, as {@link JdbcMessageLog#sharedWriter} does on the log's. */
  public SharedWriter sharedWriter() {
    return new SharedWriter() {
      @Override
      public int[] executeUpdates(List<Update> updates) {
        return writer.write(tx -> JdbcMessageLog.runUpdates(tx, updates));
      }

      @Override
      public boolean writes(MessageLog log) {
        return false;
      }

      @Override
      public Appended appendWith(NewMessage message, List<Update> updates) {
        throw new UnsupportedOperationException("no message log here");
      }
    };
  }

  @Override
  public void close() {
    writer.close();
  }
}
