package dev.legio.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and folders of private data (transcripts, the log) that only their owner may read.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>On a POSIX file system, a folder created here is {@code rwx------} (every missing folder
 *       along its path) and a file {@code rw-------}, from the moment it exists: there is no time
 *       when another user could open it. The process's umask can only take bits away.
 *   <li>What exists already is left as it is: a folder or file the user made (a shared castra,
 *       Claude Code's {@code ~/.claude/projects}) keeps the permissions they gave it.
 *   <li>On a file system without POSIX permissions (Windows), files and folders are created
 *       plainly.
 * </ul>
 */
public final class OwnerOnly {
  /** {@code rwx------}. */
  public static final Set<PosixFilePermission> FOLDER =
      PosixFilePermissions.fromString("rwx------");

  /** {@code rw-------}. */
  public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private OwnerOnly() {}

  /** Creates {@code folder} and the missing folders above it, owner-only; existing ones stay. */
  public static void createDirectories(Path folder) throws IOException {
    if (Files.isDirectory(folder)) {
      return;
    }
    Files.createDirectories(folder, attributes(folder, FOLDER));
  }

  /** Creates {@code file} empty and owner-only when it is missing (its folder must exist). */
  public static void createFileIfMissing(Path file) throws IOException {
    try {
      Files.createFile(file, attributes(file, FILE));
    } catch (FileAlreadyExistsException kept) {
      // as it was
    }
  }

  /** Opens {@code file} with {@code options}; created (with {@code CREATE}) owner-only. */
  public static FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
    return FileChannel.open(file, options, attributes(file, FILE));
  }

  private static FileAttribute<?>[] attributes(Path path, Set<PosixFilePermission> permissions) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
        : new FileAttribute<?>[0];
  }
}
