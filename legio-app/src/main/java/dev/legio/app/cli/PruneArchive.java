package dev.legio.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.files.FolderSync;
import dev.legio.files.OwnerOnly;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.Timestamps;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;

/**
 * The JSON Lines file {@code legio log prune --archive FILE} keeps the pruned messages in, one
 * message a line.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An existing FILE is appended to, never replaced: a monthly job with a fixed archive name
 *       keeps every month's messages, oldest first.
 *   <li>An existing FILE must be a regular file (a link to one is followed) that is empty or whose
 *       first line is a message an earlier prune wrote. Anything else (Legio's database, {@code
 *       legio.toml}, a folder, a device, a file of another program) is refused before any message
 *       is removed, with a line naming it.
 *   <li>A missing FILE is created owner-only ({@code rw-------}) whatever the umask, with its
 *       missing folders ({@code rwx------}); an existing one keeps its permissions.
 *   <li>The messages are forced to disk ({@code fsync}, and the folder's entry of a new file)
 *       before the log removes them. If writing fails, the file is cut back to what it held before
 *       the prune (a file this prune created is removed) and the log removes nothing.
 * </ul>
 */
final class PruneArchive implements MessageLog.Archive {
  private static final byte[] SQLITE_HEADER =
      "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  private static final List<String> MESSAGE_FIELDS = List.of("seq", "id", "sender", "timestamp");

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path file;
  private long sizeBefore = -1;
  private boolean created;

  private PruneArchive(Path file) {
    this.file = file;
  }

  /**
   * The archive at {@code file}, checked before anything is pruned.
   *
   * @param ownFiles files of the workspace that are never an archive (legio.toml, the database)
   * @throws IllegalArgumentException naming {@code file} when it may not be appended to
   */
  static PruneArchive check(Path file, List<Path> ownFiles) {
    Path absolute = file.toAbsolutePath();
    if (!Files.exists(absolute)) {
      if (Files.isSymbolicLink(absolute)) {
        throw refused(
            absolute, "is a link to a missing file: remove the link or name another file");
      }
      return new PruneArchive(absolute);
    }
    if (Files.isDirectory(absolute)) {
      throw refused(
          absolute, "is a folder: name a file, for example " + absolute.resolve("pruned.jsonl"));
    }
    if (!Files.isRegularFile(absolute)) {
      throw refused(
          absolute, "is not a regular file (a device, pipe or socket): name a JSON Lines file");
    }
    for (Path own : ownFiles) {
      try {
        if (Files.exists(own) && Files.isSameFile(absolute, own)) {
          throw refused(
              absolute,
              "is Legio's own " + own.getFileName() + ": name a JSON Lines file of its own");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    String problem = notAnArchive(absolute);
    if (problem != null) {
      throw refused(
          absolute,
          problem
              + ": it is not an archive an earlier prune wrote, and Legio appends to an archive"
              + " rather than replace it; name a new file or such an archive");
    }
    return new PruneArchive(absolute);
  }

  /** The file, absolute. */
  Path file() {
    return file;
  }

  @Override
  public void write(List<Message> removed) throws IOException {
    if (sizeBefore < 0) {
      OwnerOnly.createDirectories(file.getParent());
      created = !Files.exists(file);
    }
    try (FileChannel out =
        OwnerOnly.open(
            file,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ))) {
      if (sizeBefore < 0) {
        sizeBefore = out.size();
      }
      try {
        out.position(out.size());
        if (out.size() > 0 && !endsWithNewline(out)) {
          // A line cut short (a crash during an earlier prune, nothing removed then) stays alone.
          writeFully(out, new byte[] {'\n'});
        }
        writeFully(out, lines(removed));
        out.force(true);
      } catch (IOException e) {
        undo(out);
        throw e;
      }
    }
    if (created) {
      FolderSync.force(file.getParent());
    }
  }

  private void undo(FileChannel out) {
    try {
      if (created) {
        Files.deleteIfExists(file);
      } else {
        out.truncate(sizeBefore);
        out.force(true);
      }
    } catch (IOException ignored) {
      // the prune fails anyway; the log keeps every message
    }
  }

  private byte[] lines(List<Message> removed) throws IOException {
    StringBuilder text = new StringBuilder();
    for (Message m : removed) {
      ObjectNode line = JSON.createObjectNode();
      line.put("seq", m.sequence());
      line.put("id", m.id().toString());
      line.put("sender", m.sender());
      line.put("text", m.text());
      line.set("audience", JSON.valueToTree(m.audience().names()));
      line.put("timestamp", Timestamps.format(m.timestamp()));
      line.put("reply_to", m.replyTo() == null ? null : m.replyTo().toString());
      text.append(JSON.writeValueAsString(line)).append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static boolean endsWithNewline(FileChannel out) throws IOException {
    ByteBuffer last = ByteBuffer.allocate(1);
    out.read(last, out.size() - 1);
    return last.get(0) == '\n';
  }

  private static void writeFully(FileChannel out, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
  }

  /** Why {@code file} is not an empty file or an archive, or null when it is one. */
  private static String notAnArchive(Path file) {
    try {
      if (Files.size(file) == 0) {
        return null;
      }
      byte[] head = new byte[SQLITE_HEADER.length];
      int read;
      try (var in = Files.newInputStream(file)) {
        read = in.readNBytes(head, 0, head.length);
      }
      if (read == head.length && java.util.Arrays.equals(head, SQLITE_HEADER)) {
        return "is a SQLite database";
      }
      String first;
      try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        first = reader.readLine();
      }
      JsonNode line = first == null ? null : JSON.readTree(first);
      if (line != null && line.isObject() && MESSAGE_FIELDS.stream().allMatch(line::has)) {
        return null;
      }
      return "holds something else than pruned messages";
    } catch (CharacterCodingException e) {
      return "holds something else than text";
    } catch (NoSuchFileException e) {
      return null;
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      return "holds something else than pruned messages";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static IllegalArgumentException refused(Path file, String why) {
    return new IllegalArgumentException("--archive " + file + " " + why);
  }
}
