package dev.legio.log.jdbc;

import dev.legio.log.MessageLogException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether a SQLite {@code praetorium.db} is opened to write or only to read, and how.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>The workspace is read-only for this process when it cannot write the file, its folder or
 *       the migration lock beside it: permissions, or a read-only file system (a mounted backup),
 *       which stops root too. {@link #writable} asks the file system ({@link Files#isWritable}).
 *   <li>A command that writes opens the file read-write and migrates it first ({@link
 *       SqliteMigrations}). On a read-only workspace it is refused before anything is touched: "the
 *       praetorium is read-only", and what to do ({@link #requireWritable}).
 *   <li>A command that only reads opens a file whose schema is current (every migration of this
 *       build applied; a newer Legio's are fine) read-only: no migration lock, no Flyway migration,
 *       no write to the file. A read-only copy can be read, and a backup is read as it is.
 *   <li>A file that is not there or whose schema is not current (an older Legio's, not a Legio
 *       database, damaged) is opened by a reading command as by a writing one (rule 2): migrated
 *       (or explained) when the workspace can be written; on a read-only workspace the read is
 *       refused, saying that the file needs migrating and that only a writable copy can be ({@link
 *       #needsMigrating}).
 *   <li>On a folder this process cannot write, SQLite cannot create the write-ahead log's files
 *       beside the database, without which it cannot open it even to read. When they are not there
 *       (the last writer closed cleanly, or the file is a copy), the file is opened immutable: as
 *       on read-only media, without locks, which is right while nobody writes it; a writer that the
 *       folder lets in while it is read is not seen. When they are there, it is opened read-only
 *       and reads them ({@link #readingUrl}).
 * </ol>
 */
final class SqliteAccess {
  private SqliteAccess() {}

  /** Whether this process can write {@code file}, its folder and its migration lock (rule 1). */
  static boolean writable(Path file) {
    Path folder = file.toAbsolutePath().getParent();
    Path lock = SqliteMigrations.lockFile(file);
    return writableIfThere(file)
        && writableIfThere(lock)
        && (folder == null || writableIfThere(folder));
  }

  private static boolean writableIfThere(Path path) {
    return !Files.exists(path) || Files.isWritable(path);
  }

  /** Refuses to open {@code file} to write it when the workspace is read-only (rule 2). */
  static void requireWritable(Path file, boolean writable) {
    if (!writable) {
      throw new MessageLogException(
          "the praetorium at "
              + file
              + " is read-only (this process cannot write it or its folder), and this command"
              + " writes to it: make the castra folder and praetorium.db writable, or work on a"
              + " writable copy. Commands that only read (history, usage, status, sessions list and"
              + " show) work on it as it is.");
    }
  }

  /** The refusal of a read of {@code file} that needs a migration on a read-only workspace. */
  static MessageLogException needsMigrating(Path file, List<String> pending) {
    return new MessageLogException(
        "the praetorium at "
            + file
            + (pending.isEmpty()
                ? " cannot be read as it is"
                : " needs migrating to this version of Legio ("
                    + (pending.size() <= 3
                        ? String.join(", ", pending)
                        : pending.size()
                            + " migrations, "
                            + pending.get(0)
                            + " to "
                            + pending.getLast())
                    + ")")
            + ", but it is read-only (this process cannot write it or its folder): open it once"
            + " with a writable castra folder and praetorium.db, or read a writable copy.");
  }

  /** The JDBC URL a reading command opens {@code file} with (rule 5). */
  static String readingUrl(Path file, boolean writable) {
    Path wal = file.resolveSibling(file.getFileName() + "-wal");
    Path index = file.resolveSibling(file.getFileName() + "-shm");
    if (writable || (Files.exists(wal) && Files.exists(index))) {
      return "jdbc:sqlite:" + file;
    }
    return "jdbc:sqlite:" + file.toUri() + "?immutable=1";
  }
}
