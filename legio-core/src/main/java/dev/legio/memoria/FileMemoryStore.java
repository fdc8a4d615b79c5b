package dev.legio.memoria;

import dev.legio.errors.Quoted;
import dev.legio.files.AtomicFile;
import dev.legio.files.FolderLock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files store of memoria ({@code [memoria] store = "files"}): one XML file per entry under the
 * castra ({@link MemoryKind} says which folder), in {@link MemoryXml}'s format, which is also the
 * format of {@code legio memory export}. It checks no rights ({@link Memoria} does); it trusts its
 * caller to pass valid names.
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
 *   <li>An entry file is never read through a symbolic link, nor is anything but a regular file (as
 *       long-term memory's files are not): such an entry is skipped by lists and searches and
 *       refused by a read, its target never read or sent; messages name files from the castra on,
 *       never a host path a link points to.
 * </ul>
 */
public final class FileMemoryStore implements MemoryStore {
  private static final Logger log = LoggerFactory.getLogger(FileMemoryStore.class);
  static final String LOCK_FILE = FolderLock.LOCK_FILE;
  private static final String SUFFIX = ".xml";

  private final Path castra;

  public FileMemoryStore(Path castra) {
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
      throw new MemoryException("entry name '" + Quoted.of(name) + "' leaves its folder");
    }
    return file;
  }

  @Override
  public List<MemoryEntry> list(MemoryKind kind, String centurio) {
    Path folder = folder(kind, centurio);
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
      for (Path p : dir) {
        String fileName = p.getFileName().toString();
        String name = fileName.substring(0, fileName.length() - SUFFIX.length());
        if (EntryNames.isValid(name)) {
          files.add(p);
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new MemoryStorageException("cannot list " + folder + ": " + e.getMessage(), e);
    }
    List<MemoryEntry> entries = new ArrayList<>();
    for (Path p : files) {
      try {
        read(p, kind, centurio).ifPresent(entries::add);
      } catch (MemoryStorageException e) {
        log.warn("skipping {}: {}", p, e.getMessage());
      }
    }
    entries.sort(MemoryStore.BY_NAME);
    return entries;
  }

  @Override
  public Optional<MemoryEntry> find(MemoryKind kind, String centurio, String name) {
    return read(file(kind, centurio, name), kind, centurio);
  }

  @Override
  public List<String> commentariiOwners() {
    Path centuriones = castra.resolve("centuriones");
    List<String> owners = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(centuriones)) {
      for (Path p : dir) {
        String owner = p.getFileName().toString();
        if (dev.legio.log.Names.isValid(owner)
            && !owner.contains(":")
            && Files.isDirectory(p.resolve(MemoryKind.COMMENTARII.plural()))) {
          owners.add(owner);
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new MemoryStorageException("cannot list " + centuriones + ": " + e.getMessage(), e);
    }
    owners.sort(null);
    return owners;
  }

  /**
   * Reads an entry file, never through a symbolic link: a link in a memoria folder (to a file
   * outside the castra, or to another agent's commentarium) is refused, its target never read; so
   * is anything but a regular file. The check is made on the open file too ({@code O_NOFOLLOW}), so
   * a link swapped in after it is refused as well. Messages name the file from the castra on.
   */
  private Optional<MemoryEntry> read(Path file, MemoryKind kind, String centurio) {
    String shown = shown(file);
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new MemoryStorageException("cannot read " + shown + ": " + e.getMessage(), e);
    }
    if (attributes.isSymbolicLink()) {
      throw link(shown);
    }
    if (!attributes.isRegularFile()) {
      throw new MemoryStorageException(
          shown + " is not a regular file; memoria reads only plain files: remove it", null);
    }
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      MemoryEntry e = MemoryXml.read(in, kind, shown);
      String fileName = file.getFileName().toString();
      String name = fileName.substring(0, fileName.length() - SUFFIX.length());
      return Optional.of(new MemoryEntry(kind, name, centurio, e.notes(), e.revocation()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      if (Files.isSymbolicLink(file)) {
        throw link(shown); // swapped for a link after the check: O_NOFOLLOW refused it
      }
      throw new MemoryStorageException("cannot read " + shown + ": " + e.getMessage(), e);
    }
  }

  private static MemoryStorageException link(String shown) {
    return new MemoryStorageException(
        shown
            + " is a symbolic link; memoria does not follow links (its target is never read or"
            + " sent): replace it with a plain file or remove it",
        null);
  }

  /** A file as messages name it: from the castra on ({@code acta/north-road.xml}). */
  private String shown(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    return absolute.startsWith(castra)
        ? castra.relativize(absolute).toString()
        : absolute.toString();
  }

  @Override
  public MemoryEntry update(
      MemoryKind kind, String centurio, String name, UnaryOperator<MemoryEntry> change) {
    Path folder = folder(kind, centurio);
    Path target = file(kind, centurio, name);
    return locked(
        folder,
        () -> {
          MemoryEntry current = read(target, kind, centurio).orElse(null);
          MemoryEntry next = change.apply(current);
          if (next != current) { // a change that keeps the entry writes nothing
            AtomicFile.write(target, MemoryXml.document(next));
          }
          return next;
        });
  }

  @Override
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
