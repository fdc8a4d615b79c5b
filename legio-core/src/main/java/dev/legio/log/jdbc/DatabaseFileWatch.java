package dev.legio.log.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;

/**
 * Notices that a SQLite database file was deleted or replaced while Legio had it open. SQLite
 * connections keep the file they opened: after a delete or a replace, connections opened earlier
 * read the old file while new ones create or open another, and a process would serve two files.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>The file is identified by its file key (device and inode on POSIX) when the watch is made.
 *   <li>{@link #problem()} is empty while the path names that same file; it says what happened when
 *       the path names nothing (deleted, moved away) or another file (replaced, restored from a
 *       copy).
 *   <li>On a file system without file keys, nothing is ever reported.
 * </ol>
 */
public final class DatabaseFileWatch {
  private final Path file;
  private final Object key;

  private DatabaseFileWatch(Path file, Object key) {
    this.file = file;
    this.key = key;
  }

  /** Watches {@code file} as it is now. */
  public static DatabaseFileWatch of(Path file) {
    return new DatabaseFileWatch(file, keyOf(file));
  }

  /** Empty while {@code file} is still the file it was; else what happened and what to do. */
  public Optional<String> problem() {
    if (key == null) {
      return Optional.empty();
    }
    Object now = keyOf(file);
    if (now == null && !Files.exists(file)) {
      return Optional.of(
          file
              + " was deleted or moved while Legio had it open: Legio stops rather than write to a"
              + " new, empty file. Put the file back (or restore it) and start Legio again.");
    }
    if (now != null && !Objects.equals(now, key)) {
      return Optional.of(
          file
              + " was replaced by another file while Legio had it open: Legio stops rather than"
              + " read one file and write another. Start Legio again to use the file now there.");
    }
    return Optional.empty();
  }

  public Path file() {
    return file;
  }

  private static Object keyOf(Path file) {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null;
    }
  }
}
