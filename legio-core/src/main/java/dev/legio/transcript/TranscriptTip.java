package dev.legio.transcript;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Finds the parent of a transcript's next entry: the uuid of its last message or summary still
 * standing, as {@link Transcript#lastUuid} gives it, without loading the transcript.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The parts are read backwards from the end, a block at a time (the first of {@value
 *       #FIRST_BLOCK} bytes, each further one twice the one before), line by line, and the reading
 *       stops at the first line that answers: usually the transcript's last line.
 *   <li>A tombstone is written after the entry it deletes, so reading backwards meets it first: an
 *       entry whose uuid a later tombstone names is passed over (a rewind's cut entries).
 *   <li>As in loading, a last line without its newline (a write cut short) is not an entry, and
 *       malformed lines, lines of other types and entries without a uuid (or with one that is not a
 *       UUID) are passed over.
 * </ul>
 */
final class TranscriptTip {
  static final int FIRST_BLOCK = 8 << 10;

  private TranscriptTip() {}

  /** The last standing entry's uuid in {@code parts} (in order), or null when there is none. */
  static UUID of(List<Path> parts) throws IOException {
    Set<String> tombstoned = new HashSet<>();
    TranscriptLine.Fields fields = new TranscriptLine.Fields();
    for (int k = parts.size() - 1; k >= 0; k--) {
      try (FileChannel channel = TranscriptFiles.openForReading(parts.get(k))) {
        String found = lastInPart(channel, tombstoned, fields);
        if (found != null) {
          return UUID.fromString(found);
        }
      }
    }
    return null;
  }

  private static String lastInPart(
      FileChannel channel, Set<String> tombstoned, TranscriptLine.Fields f) throws IOException {
    long pos = channel.size();
    boolean atEnd = true; // the next segment found is the part's last: whole only with its newline
    byte[] rest = new byte[0]; // the start of the line that [pos, ...) began in, not yet read
    int block = FIRST_BLOCK;
    while (pos > 0) {
      int n = (int) Math.min(block, pos);
      pos -= n;
      byte[] buf = new byte[n + rest.length];
      ByteBuffer into = ByteBuffer.wrap(buf, 0, n);
      while (into.hasRemaining()) {
        if (channel.read(into, pos + into.position()) < 0) {
          throw new IOException("the transcript part shrank while it was read");
        }
      }
      System.arraycopy(rest, 0, buf, n, rest.length);
      int lineEnd = buf.length;
      for (int i = buf.length - 1; i >= 0; i--) {
        if (buf[i] == '\n') {
          String found = atEnd ? null : standing(buf, i + 1, lineEnd, tombstoned, f);
          if (found != null) {
            return found;
          }
          atEnd = false;
          lineEnd = i;
        }
      }
      rest = Arrays.copyOf(buf, lineEnd);
      block = (int) Math.min(block * 2L, Integer.MAX_VALUE - 16);
    }
    return atEnd ? null : standing(rest, 0, rest.length, tombstoned, f);
  }

  /** The uuid of the line {@code [s, e)} when it is a standing entry; notes a tombstone. */
  private static String standing(
      byte[] buf, int s, int e, Set<String> tombstoned, TranscriptLine.Fields f) {
    while (s < e && LineBytes.isSpace(buf[s])) {
      s++;
    }
    while (e > s && LineBytes.isSpace(buf[e - 1])) {
      e--;
    }
    if (s == e || !TranscriptLine.read(buf, s, e, f) || f.type == null) {
      return null;
    }
    if (f.type.equals("tombstone")) {
      if (f.deletedUuid != null) {
        tombstoned.add(f.deletedUuid);
      }
      return null;
    }
    if (TranscriptScanner.MESSAGE_TYPES.contains(f.type)
        && f.uuid != null
        && !tombstoned.contains(f.uuid)
        && isUuid(f.uuid)) {
      return f.uuid;
    }
    return null;
  }

  private static boolean isUuid(String s) {
    try {
      UUID.fromString(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
