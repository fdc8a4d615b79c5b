package dev.legio.app.cli;

import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.jline.reader.impl.history.DefaultHistory;

/**
 * {@code castra/.chat_history}: every line caesar typed in {@code legio chat}, kept by JLine.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>It holds the conversation, so it is readable by its owner only ({@code rw-------}) like the
 *       praetorium, the transcripts and the log file, whatever the umask: it is created owner-only
 *       before JLine first writes it, and JLine appends to it.
 *   <li>When JLine writes it anew (it rewrites a history holding lines it cannot read, deleting the
 *       file first), it is made owner-only again at once.
 *   <li>A history an older Legio left readable by others is made owner-only when the chat starts; a
 *       link is left as it is.
 * </ul>
 */
final class ChatHistoryFile extends DefaultHistory {
  private final Path file;

  private ChatHistoryFile(Path file) {
    this.file = file;
  }

  /** The history of {@code castra}, its file created (or made) owner-only. */
  static ChatHistoryFile of(Path castra) {
    Path file = castra.resolve(".chat_history");
    try {
      OwnerOnly.createDirectories(castra);
      OwnerOnly.createFileIfMissing(file);
      restrict(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ChatHistoryFile(file);
  }

  /** The file, for JLine's {@code HISTORY_FILE}. */
  Path file() {
    return file;
  }

  @Override
  public void write(Path path, boolean incremental) throws IOException {
    super.write(path, incremental);
    restrict(path == null ? file : path);
  }

  @Override
  public void append(Path path, boolean incremental) throws IOException {
    super.append(path, incremental);
    restrict(path == null ? file : path);
  }

  @Override
  public void save() throws IOException {
    super.save();
    restrict(file);
  }

  private static void restrict(Path file) throws IOException {
    if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
        && file.getFileSystem().supportedFileAttributeViews().contains("posix")
        && !Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS).equals(OwnerOnly.FILE)) {
      Files.setPosixFilePermissions(file, OwnerOnly.FILE);
    }
  }
}
