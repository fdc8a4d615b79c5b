package dev.legio.log.jdbc;

import dev.legio.log.MessageLogException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every write of a log on one connection, sharing transactions between concurrent callers
 * (group commit by flat combining): a caller queues its work and, if no transaction is running,
 * runs one itself with everything queued so far; while a transaction commits, new work queues up,
 * and the next caller to get the connection takes all of it. A caller returns once its own work is
 * committed. A lone caller thus writes on its own thread, with no hand-off to another thread.
 * Before it begins a transaction, the caller running it may wait briefly for the writers recent
 * transactions had ({@link CommitDelay}); appends sharing a transaction are written together
 * ({@link PendingAppends}).
 *
 * <p>If any work in a shared transaction fails, the transaction is rolled back and each work is run
 * again in a transaction of its own, so one bad request never fails or half-writes the others. Work
 * must therefore touch nothing but the connection. A transaction that failed before any work ran
 * (the database refused to begin it: SQLite's file held by another program past the busy wait,
 * PostgreSQL out of reach) fails all its callers at once, with one failure logged: no request
 * spoiled it, and each alone would only wait the same again (a batch of N waited N + 1 busy waits).
 * Each is told so ({@link TransactionNotBegunException}), a lone caller's too, so that a caller
 * keeping work to write again need not try its parts alone either.
 *
 * <p>No transaction begins while the database's file is not the one opened (SQLite's, deleted or
 * replaced under the running process: see {@link DatabaseFileWatch}): its work fails saying so,
 * rather than being committed to a file no one will read again and answered as stored. Looked at
 * once a transaction, a {@code stat} of the file.
 */
final class GroupCommitWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);
  static final int MAX_BATCH = 512;

  /** Database work run inside a write transaction. */
  @FunctionalInterface
  interface Work<R> {
    R run(WriteTransaction tx) throws SQLException;
  }

  /** Queued work, its result, and the thread waiting for it (woken when it is done). */
  private record Task<R>(Work<R> work, CompletableFuture<R> done, Thread waiter) {}

  private final DataSource dataSource;
  private final Dialect dialect;
  private final String storeName;
  private final Queue<Task<?>> queue = new ConcurrentLinkedQueue<>();

  /** Held by the caller running a transaction; guards {@link #connection} and {@link #stopped}. */
  private final ReentrantLock combining = new ReentrantLock();

  private WriteTransaction connection;
  private final CommitDelay delay = new CommitDelay();
  private final WriteFailureLog failures;
  private final WriterHealth health = new WriterHealth(System::nanoTime);
  private boolean stopped;
  private volatile boolean closed;

  /**
   * @param dataSource where the writer gets its one connection (again after a failure)
   */
  /**
   * @param fileProblem what is wrong with the database's file now, or empty ({@link
   *     JdbcDatabase#fileProblem})
   */
  GroupCommitWriter(
      DataSource dataSource,
      Dialect dialect,
      java.util.function.Supplier<java.util.Optional<String>> fileProblem) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.storeName = dialect.name();
    this.fileProblem = fileProblem;
    this.failures = new WriteFailureLog(storeName);
  }

  private final java.util.function.Supplier<java.util.Optional<String>> fileProblem;

  /** Runs {@code work} in a write transaction and returns its result once committed. */
  <R> R write(Work<R> work) {
    if (closed) {
      throw new MessageLogException("the message log is closed");
    }
    Task<R> task = new Task<>(work, new CompletableFuture<>(), Thread.currentThread());
    queue.add(task);
    // Whoever holds the lock runs everything queued before it commits. A caller that cannot get
    // the lock parks until its work is done (the combiner wakes it) or until a combiner leaving
    // with work still queued hands the lock's role over to it.
    while (!task.done().isDone()) {
      if (combining.tryLock()) {
        try {
          while (!task.done().isDone()) {
            runQueued();
          }
        } finally {
          combining.unlock();
        }
        Task<?> next = queue.peek();
        if (next != null) {
          LockSupport.unpark(next.waiter());
        }
      } else {
        LockSupport.park(this);
      }
    }
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

  /** Runs the queued work in one transaction. Called with {@link #combining} held. */
  private void runQueued() {
    if (queue.isEmpty()) {
      return;
    }
    // An interrupt must not cut other callers' work short (on a virtual thread it would close
    // PostgreSQL's socket mid-transaction): the batch runs uninterrupted, the flag is restored.
    boolean interrupted = Thread.interrupted();
    try {
      if (!stopped) {
        awaitMoreWork();
      }
      List<Task<?>> batch = new ArrayList<>();
      for (Task<?> next; batch.size() < MAX_BATCH && (next = queue.poll()) != null; ) {
        batch.add(next);
      }
      if (stopped) {
        MessageLogException closedLog = new MessageLogException("the message log is closed");
        batch.forEach(task -> fail(task, closedLog));
        return;
      }
      java.util.Optional<String> problem = fileProblem.get();
      if (problem.isPresent()) {
        MessageLogException gone = new MessageLogException(problem.get());
        health.failed(problem.get());
        batch.forEach(task -> fail(task, gone));
        return;
      }
      long started = System.nanoTime();
      health.began();
      try {
        runBatch(batch);
      } finally {
        health.ended();
      }
      delay.record(batch.size(), System.nanoTime() - started);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits (briefly, see {@link CommitDelay}) for the writers recent transactions had. */
  private void awaitMoreWork() {
    long wait = delay.waitNanos(queue.size());
    if (wait == 0) {
      return;
    }
    long deadline = System.nanoTime() + wait;
    while (queue.size() < delay.expectedBatch() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(this, 20_000);
    }
  }

  private void runBatch(List<Task<?>> batch) {
    Object[] results = new Object[batch.size()];
    boolean[] workRan = {false};
    try {
      inTransaction(
          tx -> {
            workRan[0] = true;
            for (int i = 0; i < batch.size(); i++) {
              results[i] = batch.get(i).work().run(tx);
            }
            return null;
          });
    } catch (Throwable failure) {
      if (!workRan[0]) {
        // The database refused the transaction itself: each alone would wait the same again.
        failAll(batch, translate(failure, false));
      } else if (batch.size() == 1) {
        fail(batch.get(0), translate(failure, true));
      } else {
        // One request spoiled the shared transaction: give each its own.
        for (Task<?> task : batch) {
          runAlone(task);
        }
      }
      return;
    }
    failures.succeeded();
    health.succeeded();
    for (int i = 0; i < batch.size(); i++) {
      complete(batch.get(i), results[i]);
    }
  }

  private <R> void runAlone(Task<R> task) {
    try {
      R result = inTransaction(task.work());
      failures.succeeded();
      health.succeeded();
      task.done().complete(result);
      LockSupport.unpark(task.waiter());
    } catch (Throwable failure) {
      fail(task, translate(failure, true));
    }
  }

  @SuppressWarnings("unchecked")
  private static <R> void complete(Task<R> task, Object result) {
    task.done().complete((R) result);
    LockSupport.unpark(task.waiter());
  }

  /**
   * Fails every task of {@code batch} with {@code failure}: each its own exception with the same
   * message and cause, since each caller adds where it waited to what it throws.
   */
  private static void failAll(List<Task<?>> batch, Throwable failure) {
    for (int i = 0; i < batch.size(); i++) {
      Throwable own =
          i == 0 || !(failure instanceof TransactionNotBegunException)
              ? failure
              : new TransactionNotBegunException(failure.getMessage(), failure.getCause());
      fail(batch.get(i), own);
    }
  }

  private static void fail(Task<?> task, Throwable failure) {
    task.done().completeExceptionally(failure);
    LockSupport.unpark(task.waiter());
  }

  /**
   * Runs {@code work} in a transaction. When the connection kept from earlier writes turns out to
   * be broken before the commit was sent (the server restarted, or ended it as idle: PostgreSQL's
   * {@code idle_session_timeout}, a proxy's or a firewall's idle limit), nothing of the work was
   * committed, so it runs once more on a fresh connection instead of failing its callers.
   */
  private <R> R inTransaction(Work<R> work) throws SQLException {
    boolean reused = connection != null;
    boolean[] committing = {false};
    try {
      return inTransactionOnce(work, committing);
    } catch (SQLException failure) {
      if (!reused || connection != null || committing[0]) {
        throw failure;
      }
      log.info(
          "the {} log's write connection was broken ({}); writing again on a new connection",
          storeName,
          failure.getMessage());
      try {
        return inTransactionOnce(work, committing);
      } catch (Throwable again) {
        again.addSuppressed(failure);
        throw again;
      }
    }
  }

  private <R> R inTransactionOnce(Work<R> work, boolean[] committing) throws SQLException {
    if (connection == null) {
      Connection opened = dataSource.getConnection();
      dialect.configureWriter(opened);
      connection = new WriteTransaction(opened, dialect);
    }
    Connection c = connection.connection();
    try {
      dialect.begin(connection);
      R result = work.run(connection);
      connection.flush();
      committing[0] = true;
      dialect.commit(connection);
      return result;
    } catch (Throwable failure) {
      connection.discardStatements();
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

  /**
   * What the callers of a failed transaction are told: the database's failure ({@link
   * SQLException}) in words, any other as it is. When none of the transaction's work ran ({@code
   * workRan} false), the database's failure, or the log's own from opening the connection (a plain
   * {@link MessageLogException}: {@link ConnectionExhaustion}'s server with no free connection), is
   * told as {@link TransactionNotBegunException}.
   */
  private Throwable translate(Throwable failure, boolean workRan) {
    if (failure instanceof SQLException sql) {
      String explained = dialect.explain(sql);
      if (dialect.refusedForContent(sql)) {
        // This write alone was refused: the database still takes writes (WriterHealth's rules).
        failures.refused(sql, explained);
      } else {
        failures.failed(sql, explained);
        health.failed(explained);
      }
      String message = "writing to the " + storeName + " log failed: " + explained;
      return workRan
          ? new MessageLogException(message, sql)
          : new TransactionNotBegunException(message, sql);
    }
    if (!workRan && failure.getClass() == MessageLogException.class) {
      return new TransactionNotBegunException(failure.getMessage(), failure.getCause());
    }
    return failure;
  }

  /** Whether this writer can write now ({@link WriterHealth}'s rules). */
  WriterHealth health() {
    return health;
  }

  /** Finishes the queued work, then closes the connection; later writes fail. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    combining.lock();
    try {
      while (!queue.isEmpty()) {
        runQueued();
      }
      stopped = true;
      if (connection != null) {
        connection.close();
        connection = null;
      }
    } finally {
      combining.unlock();
    }
  }
}
