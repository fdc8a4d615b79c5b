package dev.legio.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file whole.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The content goes to a temporary file beside the target ({@code .<name>.<random>.tmp}),
 *       which is forced to disk ({@code fsync}) and renamed over the target with {@code
 *       ATOMIC_MOVE}: a reader sees the old file or the new one, never part of one; a crash leaves
 *       the old file and at most a stray {@code .tmp}. The folder is forced after the rename
 *       ({@link FolderSync}), so that after a power cut too the new file is the one there.
 *   <li>The target's folder is created when missing, owner-only ({@link OwnerOnly}): what is
 *       written here is private (memory); the new file is {@code rw-------} (a temporary file's
 *       mode) whatever the umask.
 *   <li>A file system that cannot rename atomically is an error ({@link IOException} naming the
 *       folder), never a silent copy; the temporary file is removed whatever happens.
 *   <li>It does not serialise writers: two writers each leave a whole file, the last one wins.
 *       Read-modify-write callers hold a {@link LockFile} or {@link FolderLock} around it.
 * </ul>
 */
public final class AtomicFile {
  private AtomicFile() {}

  /** Replaces {@code target} with {@code content} in UTF-8. */
  public static void write(Path target, String content) throws IOException {
    write(target, content.getBytes(StandardCharsets.UTF_8));
  }

  /** Replaces {@code target} with {@code content}. */
  public static void write(Path target, byte[] content) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    OwnerOnly.createDirectories(folder);
    String name = target.getFileName().toString();
    Path temp = Files.createTempFile(folder, "." + name + ".", ".tmp");
    try {
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        out.force(true);
      }
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the file system cannot rename atomically in " + folder, e);
      }
      FolderSync.force(folder); // the rename itself is on disk only once the folder is
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
