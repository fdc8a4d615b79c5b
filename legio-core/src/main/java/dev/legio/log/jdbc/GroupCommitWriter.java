package dev.legio.log.jdbc;

import dev.legio.log.MessageLogException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every write of a log on one thread, sharing transactions between concurrent callers (group
 * commit): while one transaction commits, new requests queue up, and the next transaction takes all
 * of them. A caller returns once its own work is committed.
 *
 * <p>If any work in a shared transaction fails, the transaction is rolled back and each work is run
 * again in a transaction of its own, so one bad request never fails or half-writes the others. Work
 * must therefore touch nothing but the connection.
 */
final class GroupCommitWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);
  static final int MAX_BATCH = 512;

  /**
   * How long a batch may wait for more requests. Only when the previous batch had several requests
   * (several callers are appending) does the writer wait, and only until as many have arrived as
   * last time: a lone caller never waits.
   */
  static final long GATHER_NANOS = 200_000;

  /** Database work run inside a write transaction. */
  @FunctionalInterface
  interface Work<R> {
    R run(WriteTransaction tx) throws SQLException;
  }

  private record Task<R>(Work<R> work, CompletableFuture<R> done) {}

  private static final Task<Void> STOP = new Task<>(c -> null, new CompletableFuture<>());

  private final DataSource dataSource;
  private final Dialect dialect;
  private final String storeName;
  private WriteTransaction connection; // owned by the writer thread
  private final BlockingQueue<Task<?>> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean closed;

  /**
   * @param dataSource where the writer gets its one connection (again after a failure)
   */
  GroupCommitWriter(DataSource dataSource, Dialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.storeName = dialect.name();
    this.thread = Thread.ofPlatform().name("legio-log-writer").daemon().start(this::loop);
  }

  /** Runs {@code work} in a write transaction and returns its result once committed. */
  <R> R write(Work<R> work) {
    if (closed) {
      throw new MessageLogException("the message log is closed");
    }
    Task<R> task = new Task<>(work, new CompletableFuture<>());
    queue.add(task);
    try {
      return task.done().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        runtime.addSuppressed(new Exception("waited for the log writer here"));
        throw runtime;
      }
      throw new MessageLogException("writing to the " + storeName + " log failed", e.getCause());
    }
  }

  private void loop() {
    List<Task<?>> batch = new ArrayList<>(MAX_BATCH);
    boolean stopping = false;
    double expected = 1; // a decaying peak of recent batch sizes
    while (!stopping || !queue.isEmpty()) {
      try {
        batch.add(stopping ? queue.poll() : queue.take());
        queue.drainTo(batch, MAX_BATCH - 1);
        long deadline = System.nanoTime() + GATHER_NANOS;
        while (!stopping && batch.size() < (int) expected && !batch.contains(STOP)) {
          long wait = deadline - System.nanoTime();
          Task<?> more = wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : null;
          if (more == null) {
            break;
          }
          batch.add(more);
          queue.drainTo(batch, MAX_BATCH - batch.size());
        }
      } catch (InterruptedException e) {
        stopping = true;
      }
      expected = Math.max(1, Math.max(expected * 0.95, batch.size()));
      if (batch.remove(STOP)) {
        stopping = true;
      }
      batch.removeIf(java.util.Objects::isNull);
      if (!batch.isEmpty()) {
        runBatch(batch);
      }
      batch.clear();
    }
    if (connection != null) {
      connection.close();
    }
  }

  private void runBatch(List<Task<?>> batch) {
    Object[] results = new Object[batch.size()];
    try {
      inTransaction(
          tx -> {
            for (int i = 0; i < batch.size(); i++) {
              results[i] = batch.get(i).work().run(tx);
            }
            return null;
          });
    } catch (Throwable failure) {
      if (batch.size() == 1) {
        batch.get(0).done().completeExceptionally(translate(failure));
      } else {
        // One request spoiled the shared transaction: give each its own.
        for (Task<?> task : batch) {
          runAlone(task);
        }
      }
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      complete(batch.get(i), results[i]);
    }
  }

  private <R> void runAlone(Task<R> task) {
    try {
      task.done().complete(inTransaction(task.work()));
    } catch (Throwable failure) {
      task.done().completeExceptionally(translate(failure));
    }
  }

  @SuppressWarnings("unchecked")
  private static <R> void complete(Task<R> task, Object result) {
    task.done().complete((R) result);
  }

  private <R> R inTransaction(Work<R> work) throws SQLException {
    if (connection == null) {
      Connection opened = dataSource.getConnection();
      dialect.configureWriter(opened);
      connection = new WriteTransaction(opened);
    }
    Connection c = connection.connection();
    try {
      dialect.begin(c);
      R result = work.run(connection);
      dialect.commit(c);
      return result;
    } catch (Throwable failure) {
      connection.discardBatches();
      try {
        dialect.rollback(c);
      } catch (SQLException rollbackFailure) {
        failure.addSuppressed(rollbackFailure);
      }
      if (failure instanceof SQLException && !c.isValid(2)) {
        // A broken connection: open a fresh one for the next transaction.
        connection.close();
        connection = null;
      }
      throw failure;
    }
  }

  private Throwable translate(Throwable failure) {
    if (failure instanceof SQLException sql) {
      log.error("{} log write failed", storeName, sql);
      return new MessageLogException(
          "writing to the " + storeName + " log failed: " + sql.getMessage(), sql);
    }
    return failure;
  }

  /** Finishes the queued work, then stops the thread. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    queue.add(STOP);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
