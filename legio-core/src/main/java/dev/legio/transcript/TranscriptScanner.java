package dev.legio.transcript;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Loads transcript files fast: each line is walked once for its type and ids only (bodies are
 * skipped, not built; see {@link TranscriptLine}), the rest stays as bytes for {@link
 * TranscriptEntry} to parse on demand. Large parts are cut at line ends into chunks scanned in
 * parallel. The two passes (tombstones, then messages minus tombstoned ones) run over the scanned
 * lines, not the bytes.
 */
final class TranscriptScanner {
  /** Lines Claude Code writes that are conversation entries; Legio returns them. */
  static final Set<String> MESSAGE_TYPES =
      Set.of("user", "assistant", "system", "attachment", "summary");

  /** Lines Claude Code writes that are not conversation entries: known, read, not returned. */
  private static final Set<String> METADATA_TYPES =
      Set.of(
          "progress",
          "custom-title",
          "ai-title",
          "last-prompt",
          "tag",
          "agent-name",
          "agent-color",
          "agent-setting",
          "pr-link",
          "file-history-snapshot",
          "attribution-snapshot",
          "speculation-accept",
          "mode",
          "permission-mode",
          "worktree-state",
          "queue-operation",
          "marble-origami-commit",
          "marble-origami-snapshot",
          "content-replacement");

  static final int CHUNK_BYTES = 4 << 20;

  private TranscriptScanner() {}

  /** One file's bytes and its name for messages. */
  record Part(String name, byte[] bytes, int length) {}

  /** Scans the parts in order and applies the tombstones. */
  static Transcript load(String sessionId, List<Part> parts) {
    List<Chunk> chunks = new ArrayList<>();
    for (Part part : parts) {
      int start = 0;
      while (start < part.length()) {
        int end = Math.min(part.length(), start + CHUNK_BYTES);
        if (end < part.length()) {
          int nl = LineBytes.indexOfNewline(part.bytes(), end - 1, part.length());
          end = nl < 0 ? part.length() : nl + 1;
        }
        chunks.add(new Chunk(part, start, end));
        start = end;
      }
    }
    List<Scanned> results =
        chunks.size() == 1
            ? List.of(scan(chunks.get(0)))
            : IntStream.range(0, chunks.size())
                .parallel()
                .mapToObj(i -> scan(chunks.get(i)))
                .toList();

    // Pass one: the tombstones of every part.
    Set<String> deleted = new HashSet<>();
    for (Scanned s : results) {
      deleted.addAll(s.deleted);
    }
    // Pass two: the messages, minus the tombstoned ones.
    int total = 0;
    for (Scanned s : results) {
      total += s.entries.size();
    }
    List<TranscriptEntry> entries = new ArrayList<>(total);
    int tombstoned = 0;
    int lines = 0;
    int tombstones = 0;
    int metadata = 0;
    int malformed = 0;
    boolean partial = false;
    String owner = null;
    Map<String, Integer> unknown = new TreeMap<>();
    for (Scanned s : results) {
      for (TranscriptEntry e : s.entries) {
        if (e.uuid() != null && !deleted.isEmpty() && deleted.contains(e.uuid())) {
          tombstoned++;
        } else {
          entries.add(e);
        }
      }
      lines += s.lines;
      tombstones += s.deleted.size();
      metadata += s.metadata;
      malformed += s.malformed;
      partial |= s.partial;
      if (s.owner != null) {
        owner = s.owner;
      }
      s.unknown.forEach((type, n) -> unknown.merge(type, n, Integer::sum));
    }
    long bytes = 0;
    for (Part p : parts) {
      bytes += p.length();
    }
    return new Transcript(
        sessionId,
        owner,
        List.copyOf(entries),
        new LoadReport(
            parts.size(),
            bytes,
            lines,
            tombstones,
            tombstoned,
            metadata,
            Map.copyOf(unknown),
            malformed,
            partial));
  }

  private record Chunk(Part part, int start, int end) {}

  private static final class Scanned {
    final List<TranscriptEntry> entries = new ArrayList<>();
    final List<String> deleted = new ArrayList<>();
    final Map<String, Integer> unknown = new TreeMap<>();
    int lines;
    int metadata;
    int malformed;
    boolean partial;
    String owner;
  }

  /**
   * Scans a chunk line by line. A line (JSON cannot hold a raw newline, so lines are found by their
   * newline alone) is read by {@link TranscriptLine#read}, which walks it once to check that it is
   * one object with balanced brackets and to pick the five top-level fields out; a line it cannot
   * decide (an escape inside one of those fields or in a top-level key, very deep nesting) goes to
   * Jackson.
   */
  private static Scanned scan(Chunk chunk) {
    Scanned out = new Scanned();
    byte[] buf = chunk.part().bytes();
    int end = chunk.end();
    int pos = chunk.start();
    TranscriptLine.Fields f = new TranscriptLine.Fields();
    while (pos < end) {
      int nl = LineBytes.indexOfNewline(buf, pos, end);
      int lineEnd = nl < 0 ? end : nl;
      int s = pos;
      int e = lineEnd;
      while (s < e && LineBytes.isSpace(buf[s])) {
        s++;
      }
      while (e > s && LineBytes.isSpace(buf[e - 1])) {
        e--;
      }
      pos = nl < 0 ? end : nl + 1;
      if (s == e) {
        continue; // a blank line
      }
      if (nl < 0) {
        out.partial = true; // no newline after it: a write cut short, or one in progress
        break;
      }
      if (!TranscriptLine.read(buf, s, e, f)) {
        out.malformed++;
        continue;
      }
      out.lines++;
      accept(out, chunk, f.type, f.uuid, f.parentUuid, f.deletedUuid, f.agentName, s, e);
    }
    return out;
  }

  private static void accept(
      Scanned out,
      Chunk chunk,
      String type,
      String uuid,
      String parentUuid,
      String deletedUuid,
      String agentName,
      int start,
      int after) {
    if (type == null) {
      out.unknown.merge("(no type)", 1, Integer::sum);
    } else if (MESSAGE_TYPES.contains(type)) {
      out.entries.add(
          new TranscriptEntry(
              type,
              uuid,
              parentUuid,
              chunk.part().bytes(),
              start,
              after - start,
              chunk.part().name()));
    } else if (type.equals("tombstone")) {
      if (deletedUuid != null) {
        out.deleted.add(deletedUuid);
      } else {
        out.malformed++;
      }
    } else if (METADATA_TYPES.contains(type)) {
      out.metadata++;
      if (type.equals("agent-name") && agentName != null) {
        out.owner = agentName;
      }
    } else {
      out.unknown.merge(type, 1, Integer::sum);
    }
  }
}
