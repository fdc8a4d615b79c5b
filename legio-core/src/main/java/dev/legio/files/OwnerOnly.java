package dev.legio.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
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
    CreatedWith.directories(folder, FOLDER);
  }

  /** Creates {@code file} empty and owner-only when it is missing (its folder must exist). */
  public static void createFileIfMissing(Path file) throws IOException {
    try {
      Files.createFile(file, CreatedWith.attributes(file, FILE));
    } catch (FileAlreadyExistsException kept) {
      // as it was
    }
  }

  /**
   * True when {@code folder} is a folder of this user's alone: a folder, not a link, owned by the
   * user running Legio, {@code rwx------}. A folder another user could write into is not one: what
   * is in it could have been put there by someone else. On a file system without POSIX permissions
   * (Windows), true for any folder.
   */
  public static boolean isOwnFolder(Path folder) {
    try {
      PosixFileAttributes a =
          Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isDirectory()
          && a.owner().getName().equals(System.getProperty("user.name"))
          && a.permissions().equals(FOLDER);
    } catch (UnsupportedOperationException noPosix) {
      return Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return false;
    }
  }

  /** Opens {@code file} with {@code options}; created (with {@code CREATE}) owner-only. */
  public static FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
    return FileChannel.open(file, options, CreatedWith.attributes(file, FILE));
  }
}
