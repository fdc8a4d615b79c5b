package dev.legio.log.jdbc;

import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the log's writer logs of its failed writes: enough to act on during an outage, without
 * hundreds of identical stack traces burying everything else.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each failed write is one line at ERROR, with its cause in words (the dialect's explanation:
 *       for SQLite's lock, which program to look for).
 *   <li>The stack trace goes with the first failure of a streak, and again whenever the cause
 *       changes within it (another exception type, SQL state or error code); the lines between say
 *       it is the same cause as before.
 *   <li>The first write that succeeds after a streak logs one line at INFO, saying how many failed.
 *   <li>A write the database refused for what it holds ({@link ContentRefusal}) is one line at
 *       ERROR with its stack trace, saying that it was that write alone; it is no part of a streak
 *       (it neither starts, lengthens nor ends one).
 * </ul>
 *
 * Not thread-safe: called with the writer's lock held.
 */
final class WriteFailureLog {
  private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);

  private final String storeName;

  /** The cause of the streak's last failure (class, SQL state, code), or null: no streak. */
  private String streakCause;

  private int failedInStreak;

  WriteFailureLog(String storeName) {
    this.storeName = storeName;
  }

  /** A write failed for {@code failure}, which the dialect puts in words as {@code explained}. */
  void failed(SQLException failure, String explained) {
    String cause =
        failure.getClass().getName() + "/" + failure.getSQLState() + "/" + failure.getErrorCode();
    failedInStreak++;
    if (cause.equals(streakCause)) {
      log.error(
          "{} log write failed: {} ({} failed in a row; the stack trace is with the first)",
          storeName,
          explained,
          failedInStreak);
    } else {
      log.error("{} log write failed: {}", storeName, explained, failure);
    }
    streakCause = cause;
  }

  /**
   * The database refused a write for what it holds ({@code failure}, put in words as {@code
   * explained}): that write alone failed.
   */
  void refused(SQLException failure, String explained) {
    log.error(
        "{} log write refused for what it holds (that write alone; the database may take others):"
            + " {}",
        storeName,
        explained,
        failure);
  }

  /** A write succeeded: ends a streak of failures, saying so. */
  void succeeded() {
    if (streakCause == null) {
      return;
    }
    log.info(
        "{} log writes succeed again, after {} failed write{}",
        storeName,
        failedInStreak,
        failedInStreak == 1 ? "" : "s");
    streakCause = null;
    failedInStreak = 0;
  }
}
