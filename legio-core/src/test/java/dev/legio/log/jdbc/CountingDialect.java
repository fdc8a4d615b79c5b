package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A dialect that counts the write transactions its writer begins, and holds the first one at its
 * start while {@link #gate} is set, so a test can queue other callers behind it; everything else is
 * the dialect it wraps.
 */
final class CountingDialect implements Dialect {
  private final Dialect dialect;
  final AtomicInteger begins = new AtomicInteger();

  /** While set, the first begin waits for it to be counted down. */
  volatile CountDownLatch gate;

  /** Counted down when the first begin waits at {@link #gate}. */
  final CountDownLatch firstBeginWaiting = new CountDownLatch(1);

  CountingDialect(Dialect dialect) {
    this.dialect = dialect;
  }

  @Override
  public void begin(WriteTransaction tx) throws SQLException {
    CountDownLatch held = gate;
    if (begins.incrementAndGet() == 1 && held != null) {
      firstBeginWaiting.countDown();
      try {
        held.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted at the gate", e);
      }
    }
    dialect.begin(tx);
  }

  @Override
  public String name() {
    return dialect.name();
  }

  @Override
  public void bindId(PreparedStatement statement, int index, UUID id) throws SQLException {
    dialect.bindId(statement, index, id);
  }

  @Override
  public UUID readId(ResultSet row, int column) throws SQLException {
    return dialect.readId(row, column);
  }

  @Override
  public void bindTimestamp(PreparedStatement statement, int index, Instant timestamp)
      throws SQLException {
    dialect.bindTimestamp(statement, index, timestamp);
  }

  @Override
  public Instant readTimestamp(ResultSet row, int column) throws SQLException {
    return dialect.readTimestamp(row, column);
  }

  @Override
  public String audienceParameter() {
    return dialect.audienceParameter();
  }

  @Override
  public String explain(SQLException failure) {
    return dialect.explain(failure);
  }

  @Override
  public boolean refusedForContent(SQLException failure) {
    return dialect.refusedForContent(failure);
  }

  @Override
  public void probeWrite(Connection connection) throws SQLException {
    dialect.probeWrite(connection);
  }

  @Override
  public void configureWriter(Connection connection) throws SQLException {
    dialect.configureWriter(connection);
  }

  @Override
  public void commit(WriteTransaction tx) throws SQLException {
    dialect.commit(tx);
  }

  @Override
  public void rollback(Connection connection) throws SQLException {
    dialect.rollback(connection);
  }

  @Override
  public long[] insert(WriteTransaction tx, List<Row> rows) throws SQLException {
    return dialect.insert(tx, rows);
  }

  @Override
  public Set<UUID> existing(WriteTransaction tx, Collection<UUID> ids) throws SQLException {
    return dialect.existing(tx, ids);
  }

  @Override
  public void deferForeignKeys(WriteTransaction tx) throws SQLException {
    dialect.deferForeignKeys(tx);
  }
}
