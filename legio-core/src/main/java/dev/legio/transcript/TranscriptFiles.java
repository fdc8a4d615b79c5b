package dev.legio.transcript;

import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * Opening a transcript's part files, never through a symbolic link: a transcript is read into
 * prompts and out over the API and appended to by rewinds and turns, so a link placed in the
 * transcripts folder ({@code <id>.jsonl -> ~/notes.txt}) must neither carry another file's content
 * there nor have tombstones written into a file outside the castra.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A part is read and appended to only when it is a regular file, not a symbolic link
 *       (whatever it points to) nor a folder: anything else is refused with a {@link
 *       TranscriptException} naming the file and saying what to do; its target is never read nor
 *       written.
 *   <li>The check is made on the open file itself ({@code O_NOFOLLOW}): a link swapped in between a
 *       listing and the open is refused too.
 *   <li>Links in the path above the project folder (the {@code [transcripts] dir} on a linked disk)
 *       are the operator's choice and are followed, as for memory files.
 * </ul>
 */
final class TranscriptFiles {
  private TranscriptFiles() {}

  /** Whether {@code p} exists, as a link or any other kind of file (a link is not followed). */
  static boolean exists(Path p) {
    return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Why {@code p} cannot be a transcript part (a link, a folder, ...), or null when it is a regular
   * file or is missing.
   */
  static String refusal(Path p) {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return null; // missing, or unreadable: opening it says so
    }
    if (a.isSymbolicLink()) {
      return p
          + " is a symbolic link; Legio does not follow links in the transcripts folder (its"
          + " target is never read or written): replace it with the file itself or remove it";
    }
    if (!a.isRegularFile()) {
      return p + " is not a regular file (a folder?); move it out of the transcripts folder";
    }
    return null;
  }

  /** Opens a part for reading, refusing a link or anything but a regular file. */
  static FileChannel openForReading(Path p) throws IOException {
    return open(p, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * Opens a part for reading its last byte and writing at its end, creating it owner-only when
   * missing; refuses a link or anything but a regular file.
   */
  static FileChannel openForAppend(Path p) throws IOException {
    return open(
        p,
        Set.of(
            StandardOpenOption.CREATE,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS));
  }

  private static FileChannel open(Path p, Set<? extends OpenOption> options) throws IOException {
    String refused = refusal(p);
    if (refused != null) {
      throw new TranscriptException(refused);
    }
    try {
      return OwnerOnly.open(p, options);
    } catch (NoSuchFileException e) {
      throw e;
    } catch (FileSystemException e) {
      refused = refusal(p); // swapped for a link after the check: O_NOFOLLOW refused it
      if (refused != null) {
        throw new TranscriptException(refused, e);
      }
      throw e;
    }
  }

  /** Reads a whole part (what there is, when it shrinks meanwhile). */
  static TranscriptScanner.Part read(Path p) {
    try (FileChannel channel = openForReading(p)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE - 16) {
        throw new TranscriptException(
            p + " is " + size + " bytes: a transcript part cannot be larger than 2 GB");
      }
      byte[] bytes = new byte[(int) size];
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, buffer.position()) < 0) {
          break; // truncated meanwhile: read what there is
        }
      }
      return new TranscriptScanner.Part(p.toString(), bytes, buffer.position());
    } catch (IOException e) {
      throw new TranscriptException("cannot read " + p + ": " + e.getMessage(), e);
    }
  }
}
