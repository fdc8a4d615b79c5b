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

  /** Database work run inside a write transaction. */
  @FunctionalInterface
  interface Work<R> {
    R run(Connection connection) throws SQLException;
  }

  private record Task<R>(Work<R> work, CompletableFuture<R> done) {}

  private static final Task<Void> STOP = new Task<>(c -> null, new CompletableFuture<>());

  private final DataSource dataSource;
  private final String storeName;
  private final BlockingQueue<Task<?>> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean closed;

  GroupCommitWriter(DataSource dataSource, String storeName) {
    this.dataSource = dataSource;
    this.storeName = storeName;
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
    while (!stopping || !queue.isEmpty()) {
      try {
        batch.add(stopping ? queue.poll() : queue.take());
      } catch (InterruptedException e) {
        stopping = true;
        continue;
      }
      queue.drainTo(batch, MAX_BATCH - 1);
      if (batch.remove(STOP)) {
        stopping = true;
      }
      batch.removeIf(java.util.Objects::isNull);
      if (!batch.isEmpty()) {
        runBatch(batch);
      }
      batch.clear();
    }
  }

  private void runBatch(List<Task<?>> batch) {
    Object[] results = new Object[batch.size()];
    try {
      inTransaction(
          connection -> {
            for (int i = 0; i < batch.size(); i++) {
              results[i] = batch.get(i).work().run(connection);
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
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try {
        R result = work.run(connection);
        connection.commit();
        return result;
      } catch (Throwable failure) {
        try {
          connection.rollback();
        } catch (SQLException rollbackFailure) {
          failure.addSuppressed(rollbackFailure);
        }
        throw failure;
      }
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
