package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import dev.legio.log.MessageLogException;
import dev.legio.log.NewMessage;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log's writer, seen through the shared writer that session stores use. */
class GroupCommitWriterTest {
  @TempDir Path dir;
  private JdbcMessageLog log;
  private SharedWriter writer;

  @BeforeEach
  void open() {
    log =
        (JdbcMessageLog)
            JdbcMessageLogs.openSqlite(
                new JdbcMessageLogs.SqliteOptions(
                    dir.resolve("praetorium.db"),
                    4096,
                    false,
                    2,
                    MutableClock.at("2026-02-15T12:00:00Z")));
    writer = log.sharedWriter();
    writer.executeUpdate("CREATE TABLE IF NOT EXISTS probe (n INTEGER NOT NULL)", s -> {});
  }

  @AfterEach
  void close() {
    log.close();
  }

  @Test
  void aStatementThatFailedWhileItsTableWasMissingWorksOnceTheTableIsBack() throws Exception {
    String insert = "INSERT INTO probe (n) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM probe)";
    try (java.sql.Connection other =
            java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("praetorium.db"));
        java.sql.Statement s = other.createStatement()) {
      s.execute("ALTER TABLE probe RENAME TO probe_away"); // another process damaged the database
      assertThatThrownBy(() -> writer.executeUpdate(insert, st -> st.setInt(1, 1)))
          .isInstanceOf(MessageLogException.class)
          .as("the transaction began: its statement failed")
          .isNotInstanceOf(TransactionNotBegunException.class)
          .hasMessageContaining("no such table: probe");
      s.execute("ALTER TABLE probe_away RENAME TO probe"); // and it was repaired
    }
    assertThat(writer.executeUpdate(insert, st -> st.setInt(1, 2))).isOne();
  }

  @Test
  void aStreakOfFailedWritesLogsALineEachOneStackTraceAndALineWhenWritesSucceedAgain()
      throws Exception {
    String insert = "INSERT INTO probe (n) VALUES (?)";
    try (java.sql.Connection other =
            java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("praetorium.db"));
        java.sql.Statement s = other.createStatement();
        dev.legio.testing.LogCapture logs = new dev.legio.testing.LogCapture()) {
      s.execute("ALTER TABLE probe RENAME TO probe_away"); // an outage, of a kind quick to test
      for (int i = 0; i < 5; i++) {
        assertThatThrownBy(() -> writer.executeUpdate(insert, st -> st.setInt(1, 1)))
            .isInstanceOf(MessageLogException.class);
      }
      s.execute("ALTER TABLE probe_away RENAME TO probe");
      writer.executeUpdate(insert, st -> st.setInt(1, 2));
      writer.executeUpdate(insert, st -> st.setInt(1, 3));

      List<ch.qos.logback.classic.spi.ILoggingEvent> logged =
          logs.events().stream()
              .filter(e -> e.getLoggerName().equals(GroupCommitWriter.class.getName()))
              .toList();
      assertThat(logged).hasSize(6);
      assertThat(logged.subList(0, 5))
          .allSatisfy(
              e -> {
                assertThat(e.getLevel()).isEqualTo(ch.qos.logback.classic.Level.ERROR);
                assertThat(e.getFormattedMessage())
                    .startsWith("sqlite log write failed: ")
                    .contains("no such table: probe")
                    .doesNotContain("\n");
              });
      assertThat(logged.stream().filter(e -> e.getThrowableProxy() != null))
          .as("one stack trace for the streak")
          .containsExactly(logged.get(0));
      assertThat(logged.get(4).getFormattedMessage()).contains("5 failed in a row");
      assertThat(logged.get(5).getLevel()).isEqualTo(ch.qos.logback.classic.Level.INFO);
      assertThat(logged.get(5).getFormattedMessage())
          .isEqualTo("sqlite log writes succeed again, after 5 failed writes");
    }
  }

  /**
   * Another program holds the file's write lock: callers queued behind a transaction share the next
   * one, and when the database refuses to begin it, all of them fail after that one busy wait, each
   * told that no work ran ({@link TransactionNotBegunException}). Each used to be tried again
   * alone, each waiting the busy wait again.
   */
  @Test
  void callersWhoseSharedTransactionTheDatabaseRefusesToBeginFailTogetherNotEachAgainAlone()
      throws Exception {
    Path file = dir.resolve("praetorium.db");
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (ShortBusyWaitSqlite held = new ShortBusyWaitSqlite(file, Duration.ofMillis(200));
        java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        java.sql.Statement holder = other.createStatement()) {
      CountingDialect dialect = held.dialect();
      dialect.gate = new java.util.concurrent.CountDownLatch(1);
      SharedWriter heldWriter = held.sharedWriter();
      Runnable insert =
          () -> {
            try {
              heldWriter.executeUpdate("INSERT INTO probe (n) VALUES (1)", st -> {});
            } catch (RuntimeException e) {
              failures.add(e);
            }
          };
      holder.execute("BEGIN IMMEDIATE");
      List<Thread> callers = new ArrayList<>();
      callers.add(Thread.ofPlatform().start(insert));
      assertThat(dialect.firstBeginWaiting.await(10, java.util.concurrent.TimeUnit.SECONDS))
          .isTrue();
      for (int i = 0; i < 3; i++) {
        Thread queued = Thread.ofPlatform().start(insert);
        callers.add(queued);
        awaitParked(queued);
      }
      dialect.gate.countDown();
      for (Thread caller : callers) {
        caller.join(60_000);
      }
      holder.execute("ROLLBACK");
      assertThat(held.begins())
          .as("the first caller's transaction, then the three others' together, and no more")
          .isEqualTo(2);
    }
    assertThat(failures)
        .hasSize(4)
        .allSatisfy(
            e ->
                assertThat(e)
                    .as("each told no work ran, the lone first caller's too")
                    .isInstanceOf(TransactionNotBegunException.class)
                    .hasMessageContaining("database is locked"));
  }

  private static void awaitParked(Thread thread) throws InterruptedException {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
    while (thread.getState() != Thread.State.WAITING) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(thread + " did not queue within 10 s: " + thread.getState());
      }
      Thread.sleep(1);
    }
  }

  @Test
  void aLoneCallerWritesOnItsOwnThread() {
    Thread[] ranOn = new Thread[1];
    writer.executeUpdate(
        "INSERT INTO probe (n) VALUES (?)",
        s -> {
          ranOn[0] = Thread.currentThread();
          s.setInt(1, 1);
        });
    assertThat(ranOn[0]).isSameAs(Thread.currentThread());
  }

  @Test
  void statementsRunWithAnAppendSeeItsMessageAlsoWhenAppendsAreWrittenTogether() throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int base = t * 100;
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = base; i < base + 50; i++) {
                      String text = "m" + i;
                      SharedWriter.Appended appended =
                          writer.appendWith(
                              NewMessage.of("caesar", Audience.of("legatus"), text),
                              List.of(
                                  new SharedWriter.Update(
                                      "INSERT INTO probe (n) SELECT count(*) FROM nuntii"
                                          + " WHERE text = ?",
                                      s -> s.setString(1, text))));
                      assertThat(appended.counts()).containsExactly(1);
                      assertThat(appended.message().text()).isEqualTo(text);
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(log.size()).isEqualTo(400);
    try (var c =
            java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("praetorium.db"));
        var s = c.createStatement();
        var r = s.executeQuery("SELECT count(*), min(n) FROM probe")) {
      r.next();
      assertThat(r.getInt(1)).isEqualTo(400);
      assertThat(r.getInt(2)).as("every statement saw its message").isEqualTo(1);
    }
  }

  @Test
  void concurrentCallersShareTransactionsAndEveryWriteLands() throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int base = t * 1000;
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < 100; i++) {
                      int n = base + i;
                      writer.executeUpdate("INSERT INTO probe (n) VALUES (?)", s -> s.setInt(1, n));
                      log.append(NewMessage.of("caesar", Audience.of("legatus"), "m" + n));
                    }
                  }));
    }
    for (Thread t : threads) {
      t.join(60_000);
    }
    assertThat(count("SELECT COUNT(*) FROM probe")).isEqualTo(800);
    assertThat(count("SELECT COUNT(DISTINCT n) FROM probe")).isEqualTo(800);
    assertThat(log.size()).isEqualTo(800);
  }

  @Test
  void aBadWriteFailsAloneAndTheOthersInItsTransactionLand() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      boolean bad = t == 2;
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < 50; i++) {
                      try {
                        writer.executeUpdate(
                            bad
                                ? "INSERT INTO probe (n) VALUES (NULL)"
                                : "INSERT INTO probe (n) VALUES (1)",
                            s -> {});
                      } catch (MessageLogException e) {
                        synchronized (failures) {
                          failures.add(e);
                        }
                      }
                    }
                  }));
    }
    for (Thread t : threads) {
      t.join(60_000);
    }
    assertThat(failures).hasSize(50);
    assertThat(count("SELECT COUNT(*) FROM probe")).isEqualTo(150);
  }

  @Test
  void anInterruptedCallerStillWritesAndKeepsItsInterrupt() {
    Thread.currentThread().interrupt();
    try {
      writer.executeUpdate("INSERT INTO probe (n) VALUES (7)", s -> {});
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(count("SELECT COUNT(*) FROM probe WHERE n = 7")).isEqualTo(1);
  }

  @Test
  void writesAfterCloseFailClearly() {
    log.close();
    assertThatThrownBy(() -> writer.executeUpdate("INSERT INTO probe (n) VALUES (1)", s -> {}))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("closed");
  }

  private long count(String sql) {
    long[] n = new long[1];
    // A read inside a write transaction sees everything committed before it.
    writer.executeUpdate(
        "UPDATE probe SET n = n WHERE 0",
        s -> {
          try (var rs = s.getConnection().createStatement().executeQuery(sql)) {
            rs.next();
            n[0] = rs.getLong(1);
          }
        });
    return n[0];
  }
}
