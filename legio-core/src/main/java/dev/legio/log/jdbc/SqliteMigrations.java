package dev.legio.log.jdbc;

import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;

/**
 * Migrating a SQLite {@code praetorium.db} when several processes open it at once.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>One migration at a time per file, across processes and threads: each holds an exclusive
 *       lock on {@code FILE.migrate.lock} beside it while it migrates; the others wait for it, then
 *       find the schema current and have nothing to do.
 *   <li>A path that is no database file is refused before anything is written beside it (no {@code
 *       FILE.migrate.lock} left behind), as a mistake in {@code sqlite_path} or {@code
 *       LEGIO_DB_URL} (exit 2, {@link #requireDatabaseFile}): a folder, something other than a
 *       regular file, or a file that is not empty and does not start as a SQLite database does
 *       (text, JSON Lines, another format), each told as what it is.
 *   <li>A SQLite database of another program is refused before anything is written to it ("not a
 *       Legio praetorium.db, move it aside"): it holds tables but neither Legio's {@code nuntii}
 *       nor Flyway's history (migrating would fill it with Legio's tables).
 *   <li>A failed migration of a damaged file (SQLite's CORRUPT) says to restore it from a backup.
 * </ol>
 */
final class SqliteMigrations {
  private static final ReentrantLock IN_PROCESS = new ReentrantLock();

  private SqliteMigrations() {}

  /** The migration lock of {@code file}: {@code FILE.migrate.lock} beside it. */
  static Path lockFile(Path file) {
    return file.resolveSibling(file.getFileName() + ".migrate.lock");
  }

  private static final byte[] SQLITE_HEADER =
      "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * Refuses {@code file} when it is no SQLite database file (rule 2); a missing or empty file is
   * one (a new database).
   */
  static void requireDatabaseFile(Path file) {
    String what = null;
    if (Files.isDirectory(file)) {
      what =
          "it is a folder, not a database file: point the setting at a file, such as "
              + file.resolve("praetorium.db");
    } else if (Files.exists(file) && !Files.isRegularFile(file)) {
      what =
          "it is not a regular file (a device, pipe or socket): point the setting at a database file";
    } else if (Files.isRegularFile(file) && !startsAsSqlite(file)) {
      what =
          "it is not a SQLite database (it holds text or another format): move it aside, or point"
              + " the setting at Legio's praetorium.db or a new file";
    }
    if (what != null) {
      throw new NotADatabaseFileException(
          "cannot open the message log at "
              + file
              + " ([praetorium] sqlite_path in legio.toml, or LEGIO_DB_URL): "
              + what
              + ".");
    }
  }

  private static boolean startsAsSqlite(Path file) {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(SQLITE_HEADER.length);
      return head.length == 0 || java.util.Arrays.equals(head, SQLITE_HEADER);
    } catch (IOException e) {
      return true; // cannot tell: opening it says why
    }
  }

  /** A path in the settings that is no database file: a mistake to fix there (exit 2). */
  static final class NotADatabaseFileException extends dev.legio.log.MessageLogException
      implements dev.legio.errors.UsageError {
    NotADatabaseFileException(String message) {
      super(message);
    }
  }

  /** Runs {@code migration} holding {@code file}'s migration lock. */
  static void serialised(Path file, Runnable migration) {
    Path lockFile = lockFile(file);
    IN_PROCESS.lock();
    try (FileChannel channel =
            OwnerOnly.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE));
        FileLock held = channel.lock()) {
      migration.run();
    } catch (IOException e) {
      throw new dev.legio.log.MessageLogException(
          "cannot lock " + lockFile + " to migrate the message log: " + e.getMessage(), e);
    } finally {
      IN_PROCESS.unlock();
    }
  }

  /** Whether {@code failure} says the database file is damaged (SQLite's CORRUPT). */
  static boolean isDamaged(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (message.contains("SQLITE_CORRUPT") || message.contains("malformed")) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code file} is something other than a Legio database (see the class comment). */
  static boolean isForeign(Path file) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) == 0) {
        return false;
      }
    } catch (IOException e) {
      return false;
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.setBusyTimeout(2_000);
    try (Connection c = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*), sum(name IN ('nuntii', 'flyway_schema_history'))"
                    + " FROM sqlite_master WHERE type = 'table'")) {
      r.next();
      return r.getInt(1) > 0 && r.getInt(2) == 0;
    } catch (SQLException e) {
      // SQLITE_NOTADB: not a database at all. Anything else (busy, locked) says nothing.
      String message = String.valueOf(e.getMessage());
      return message.contains("NOTADB") || message.contains("not a database");
    }
  }
}
