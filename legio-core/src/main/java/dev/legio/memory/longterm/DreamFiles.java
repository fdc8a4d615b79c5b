package dev.legio.memory.longterm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Atomic file writes for consolidation: a reader sees the old file or the new one, never part. */
final class DreamFiles {
  private DreamFiles() {}

  /**
   * Writes {@code text} to a temporary file beside {@code target}, forces it to disk and renames it
   * over {@code target} ({@code ATOMIC_MOVE}). A crash leaves {@code target} as it was (and at most
   * a stray {@code .tmp}).
   */
  static void writeAtomically(Path target, String text) throws IOException {
    Path folder = target.getParent();
    Files.createDirectories(folder);
    Path temp = Files.createTempFile(folder, "." + target.getFileName() + ".", ".tmp");
    try {
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
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
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The file's text, or null when it does not exist. */
  static String readIfExists(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    }
  }
}
