package dev.legio.memoria;

import dev.legio.files.AtomicFile;
import dev.legio.files.FolderLock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memoria folders under the castra: reading, and changing entries safely. It checks no rights
 * ({@link Memoria} does); it trusts its caller to pass valid names.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A change reads the entry, changes it and replaces the file whole ({@link AtomicFile}:
 *       temporary file, forced to disk, {@code ATOMIC_MOVE}): a reader sees the old entry or the
 *       new one, never part of one; a crash leaves at most a stray {@code .tmp}.
 *   <li>Changes to one folder are serialised by its {@link FolderLock}: between threads by a lock
 *       in this JVM, and between processes by an OS file lock on the folder's {@code .lock} file.
 *       No change is ever lost to a concurrent writer.
 *   <li>Readers take no lock. A file that cannot be parsed is skipped by lists and searches (and
 *       logged), and reported by a read of that entry.
 * </ul>
 */
public final class MemoryStore {
  private static final Logger log = LoggerFactory.getLogger(MemoryStore.class);
  static final String LOCK_FILE = FolderLock.LOCK_FILE;
  private static final String SUFFIX = ".xml";

  private final Path castra;

  public MemoryStore(Path castra) {
    this.castra = castra.toAbsolutePath().normalize();
  }

  /** The folder of a store: {@code castra/edicta}, or an agent's {@code commentarii}. */
  public Path folder(MemoryKind kind, String centurio) {
    return switch (kind) {
      case EDICTA, ACTA -> castra.resolve(kind.plural());
      case COMMENTARII -> castra.resolve("centuriones").resolve(centurio).resolve(kind.plural());
    };
  }

  Path file(MemoryKind kind, String centurio, String name) {
    Path folder = folder(kind, centurio);
    Path file = folder.resolve(name + SUFFIX).normalize();
    if (!file.getParent().equals(folder)) {
      // Unreachable with a valid name; a second wall in case a caller skipped validation.
      throw new MemoryException(
          "entry name '" + EntryNames.printable(name) + "' leaves its folder");
    }
    return file;
  }

  /** Every readable entry of a store, by name. */
  public List<MemoryEntry> list(MemoryKind kind, String centurio) {
    Path folder = folder(kind, centurio);
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
      for (Path p : dir) {
        String fileName = p.getFileName().toString();
        String name = fileName.substring(0, fileName.length() - SUFFIX.length());
        if (EntryNames.isValid(name) && Files.isRegularFile(p)) {
          files.add(p);
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new MemoryStorageException("cannot list " + folder + ": " + e.getMessage(), e);
    }
    files.sort(null);
    List<MemoryEntry> entries = new ArrayList<>();
    for (Path p : files) {
      try {
        read(p, kind).ifPresent(entries::add);
      } catch (MemoryStorageException e) {
        log.warn("skipping {}: {}", p, e.getMessage());
      }
    }
    return entries;
  }

  /** The entry, if it exists. */
  public Optional<MemoryEntry> find(MemoryKind kind, String centurio, String name) {
    return read(file(kind, centurio, name), kind);
  }

  private static Optional<MemoryEntry> read(Path file, MemoryKind kind) {
    try (InputStream in = Files.newInputStream(file)) {
      return Optional.of(MemoryXml.read(in, kind, file.toString()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new MemoryStorageException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Changes one entry under the folder's lock: {@code change} gets the current entry (null when
   * there is none) and returns the new one; throwing from it changes nothing.
   */
  public MemoryEntry update(
      MemoryKind kind, String centurio, String name, UnaryOperator<MemoryEntry> change) {
    Path folder = folder(kind, centurio);
    Path target = file(kind, centurio, name);
    return locked(
        folder,
        () -> {
          MemoryEntry current = read(target, kind).orElse(null);
          MemoryEntry next = change.apply(current);
          AtomicFile.write(target, MemoryXml.document(next));
          return next;
        });
  }

  /** Deletes entries under the folder's lock: {@code name}, or all when it is null. */
  public List<String> delete(MemoryKind kind, String centurio, String name) {
    Path folder = folder(kind, centurio);
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    return locked(
        folder,
        () -> {
          List<String> names =
              name != null
                  ? List.of(name)
                  : list(kind, centurio).stream().map(MemoryEntry::name).toList();
          List<String> deleted = new ArrayList<>();
          for (String n : names) {
            if (Files.deleteIfExists(file(kind, centurio, n))) {
              deleted.add(n);
            }
          }
          return deleted;
        });
  }

  private static <T> T locked(Path folder, FolderLock.Action<T> action) {
    try {
      return FolderLock.run(folder, action);
    } catch (IOException e) {
      throw new MemoryStorageException("cannot write in " + folder + ": " + e.getMessage(), e);
    }
  }
}
