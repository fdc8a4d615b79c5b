package dev.legio.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * How {@link OwnerOnly} and {@link OwnerWritable} create what they create: with its permissions
 * from the moment it exists on a POSIX file system (the umask can only take bits away), plainly
 * elsewhere; a folder or file that exists already is left as it is.
 */
final class CreatedWith {
  private CreatedWith() {}

  /** The attributes that create {@code path} with {@code permissions}, where they can. */
  static FileAttribute<?>[] attributes(Path path, Set<PosixFilePermission> permissions) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
        : new FileAttribute<?>[0];
  }

  /** Creates {@code folder} and the missing folders above it with {@code permissions}. */
  static void directories(Path folder, Set<PosixFilePermission> permissions) throws IOException {
    if (Files.isDirectory(folder)) {
      return;
    }
    Files.createDirectories(folder, attributes(folder, permissions));
  }
}
