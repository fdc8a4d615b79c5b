package dev.legio.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and folders that steer Legio ({@code legio.toml}, which picks the program Legio runs and
 * where the API key is sent; the prompts; the edicta, acta and centuriones folders): everyone on
 * the machine may read them, only their owner may change them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>On a POSIX file system, a folder created here is {@code rwxr-xr-x} (every missing folder
 *       along its path) and a file {@code rw-r--r--}, from the moment it exists, whatever the
 *       umask: a permissive umask (000, 002) never makes them writable by the group or others. The
 *       umask can only take bits away.
 *   <li>What exists already is left as it is: the user's own permissions stand.
 *   <li>On a file system without POSIX permissions (Windows), files and folders are created
 *       plainly.
 * </ul>
 *
 * <p>Private data (the log, transcripts, memory) is {@link OwnerOnly} instead.
 */
public final class OwnerWritable {
  /** {@code rwxr-xr-x}. */
  public static final Set<PosixFilePermission> FOLDER =
      PosixFilePermissions.fromString("rwxr-xr-x");

  /** {@code rw-r--r--}. */
  public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-r--r--");

  private OwnerWritable() {}

  /** Creates {@code folder} and the missing folders above it; existing ones stay as they are. */
  public static void createDirectories(Path folder) throws IOException {
    CreatedWith.directories(folder, FOLDER);
  }

  /**
   * Creates {@code file} (its folder must exist) with {@code content}.
   *
   * <p>A write that fails part-way (a full disk) deletes the file it created, so that no file cut
   * short is left to be kept as it is.
   *
   * @throws java.nio.file.FileAlreadyExistsException when it exists: it is never replaced
   */
  public static void create(Path file, InputStream content) throws IOException {
    Files.createFile(file, CreatedWith.attributes(file, FILE));
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.WRITE)) {
      content.transferTo(out);
    } catch (IOException | RuntimeException e) {
      // A file cut short (a full disk) would be kept as it is by the next run, which never
      // replaces a file: it goes, so that the next run writes it whole.
      try {
        Files.deleteIfExists(file);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }
}
