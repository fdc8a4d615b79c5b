package dev.legio.transcript;

import dev.legio.files.AtomicFile;
import dev.legio.files.FolderSync;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The part files of the sessions in one {@link FileTranscriptStore}'s folder, and how lines are
 * written into them. The caller holds the session's append lock around every write.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A session's first part is {@code <id>.jsonl}, then come {@code <id>_part2.jsonl}, {@code
 *       _part3}, and so on; its parts are those that exist from the first on, a link counting as
 *       one (so that reading or appending to it is refused rather than passed over).
 *   <li>An append that would take all parts together past {@code totalLimit} fails with {@link
 *       TranscriptFullException} and writes nothing; a line that would take the last part past
 *       {@code partLimit} goes to the next part, which it starts.
 *   <li>A part that does not end in a newline (a crash mid-write) gets one before the next line, so
 *       the line cut short stays apart from it. Each line is written whole with one gathering write
 *       at the size read under the lock, on a channel never opened through a link ({@link
 *       TranscriptFiles}).
 *   <li>Durability: an append holding a tombstone returns once it is forced to disk ({@code
 *       fsync}), with the folder too when it started a part ({@link FolderSync}), so that a
 *       deletion a caller has been told is done (a rewind, whose note is deleted next) never comes
 *       back after a power cut. Other appends (a turn's entries) are left to the system to write in
 *       its time.
 *   <li>Creating: a new transcript is cut into parts by the same limit and the parts are written
 *       whole, each to a temporary file forced to disk and renamed over ({@link AtomicFile}), the
 *       last first, so the transcript appears when its first part does, with everything in it.
 * </ul>
 */
final class TranscriptParts {
  static final String SUFFIX = ".jsonl";

  private static final byte[] NEWLINE = {'\n'};

  private final Path folder;
  private final long partLimit;
  private final long totalLimit;

  /**
   * @param folder the folder the parts are in
   * @param partLimit the largest a part may grow
   * @param totalLimit the largest all parts of a session together may grow
   */
  TranscriptParts(Path folder, long partLimit, long totalLimit) {
    this.folder = folder;
    this.partLimit = partLimit;
    this.totalLimit = totalLimit;
  }

  /** The largest a part may grow. */
  long partLimit() {
    return partLimit;
  }

  /**
   * New entries as lines, and their bytes with a newline each; {@code deletes} when one of them is
   * a tombstone.
   */
  record Lines(List<byte[]> lines, long bytes, boolean deletes) {}

  /** The part an append wrote last, and its size after it. */
  record Written(Path part, long size) {}

  /**
   * The session's files in order: the first, then _part2, _part3, ... while they exist (a link
   * counts as one, so that reading or appending to it is refused rather than passed over).
   */
  List<Path> of(String sessionId) {
    List<Path> out = new ArrayList<>();
    for (int n = 1; ; n++) {
      Path p = path(sessionId, n);
      if (!TranscriptFiles.exists(p)) {
        return out;
      }
      out.add(p);
    }
  }

  /** The file of the session's part {@code n}, the first being 1. */
  Path path(String sessionId, int n) {
    return folder.resolve(n == 1 ? sessionId + SUFFIX : sessionId + "_part" + n + SUFFIX);
  }

  /** Writes a new transcript of {@code lines} whole; the session must have no part yet. */
  void create(String sessionId, Lines lines) throws IOException {
    if (!of(sessionId).isEmpty()) {
      throw new TranscriptException(
          "session " + sessionId + " has a transcript already; nothing was written");
    }
    if (lines.bytes() + 1 > totalLimit) {
      throw new TranscriptFullException(
          "a transcript of "
              + lines.bytes()
              + " bytes would pass the limit of "
              + totalLimit
              + " bytes; nothing was written to session "
              + sessionId);
    }
    List<ByteArrayOutputStream> parts = new ArrayList<>();
    ByteArrayOutputStream part = new ByteArrayOutputStream();
    parts.add(part);
    for (byte[] line : lines.lines()) {
      if (part.size() > 0 && part.size() + line.length + 1 > partLimit) {
        part = new ByteArrayOutputStream();
        parts.add(part);
      }
      part.writeBytes(line);
      part.write('\n');
    }
    for (int n = parts.size(); n >= 1; n--) {
      AtomicFile.write(path(sessionId, n), parts.get(n - 1).toByteArray());
    }
  }

  /** Writes the lines at the end of the transcript, whose parts are {@code parts}. */
  Written append(String sessionId, List<Path> parts, Lines batchLines) throws IOException {
    List<byte[]> lines = batchLines.lines();
    long batch = batchLines.bytes();
    long total = 0;
    for (Path p : parts) {
      total += Files.size(p);
    }
    if (total + batch + 1 > totalLimit) {
      throw new TranscriptFullException(
          "the transcript of session "
              + sessionId
              + " would pass its limit of "
              + totalLimit
              + " bytes ("
              + total
              + " bytes in "
              + parts.size()
              + " part(s)); nothing was written. Start a new session or compact this one.");
    }
    int partNumber = Math.max(1, parts.size());
    Path current = path(sessionId, partNumber);
    boolean created = parts.isEmpty();
    FileChannel channel = openForAppend(current);
    long size;
    try {
      size = channel.size();
      boolean freshLine = size == 0 || endsWithNewline(channel, size);
      for (byte[] line : lines) {
        int needed = line.length + 1 + (freshLine ? 0 : 1);
        if (size > 0 && size + needed > partLimit) {
          forceIf(batchLines.deletes(), channel);
          channel.close();
          partNumber++;
          current = path(sessionId, partNumber);
          created = true;
          channel = openForAppend(current);
          size = channel.size();
          freshLine = size == 0 || endsWithNewline(channel, size);
          needed = line.length + 1 + (freshLine ? 0 : 1);
        }
        // One gathering write of the line as it is, no copy of it (a turn's line holds its whole
        // message); a line cut short by a crash is first closed, so it stays apart from this one.
        ByteBuffer[] buffers =
            freshLine
                ? new ByteBuffer[] {ByteBuffer.wrap(line), ByteBuffer.wrap(NEWLINE)}
                : new ByteBuffer[] {
                  ByteBuffer.wrap(NEWLINE), ByteBuffer.wrap(line), ByteBuffer.wrap(NEWLINE)
                };
        channel.position(size);
        long written = 0;
        while (written < needed) {
          written += channel.write(buffers);
        }
        size += needed;
        freshLine = true;
      }
      forceIf(batchLines.deletes(), channel);
    } finally {
      channel.close();
    }
    if (batchLines.deletes() && created) {
      FolderSync.force(folder);
    }
    return new Written(current, size);
  }

  /** Forces what {@code channel} wrote to disk when the batch deletes entries (tombstones). */
  private static void forceIf(boolean deletes, FileChannel channel) throws IOException {
    if (deletes) {
      channel.force(true);
    }
  }

  /**
   * Opens a part for reading its last byte and writing at its end, never through a link ({@link
   * TranscriptFiles}). Writes go at the size read under the lock (not in append mode), so one
   * channel does both.
   */
  private static FileChannel openForAppend(Path file) throws IOException {
    return TranscriptFiles.openForAppend(file);
  }

  private static boolean endsWithNewline(FileChannel channel, long size) throws IOException {
    ByteBuffer last = ByteBuffer.allocate(1);
    return channel.read(last, size - 1) == 1 && last.get(0) == '\n';
  }
}
