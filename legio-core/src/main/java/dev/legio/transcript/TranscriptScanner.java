package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Loads transcript files fast: each line is read with Jackson's streaming parser for its type and
 * ids only (bodies are skipped, not built), the rest stays as bytes for {@link TranscriptEntry} to
 * parse on demand. Large parts are cut at line ends into chunks scanned in parallel. The two passes
 * (tombstones, then messages minus tombstoned ones) run over the scanned lines, not the bytes.
 */
final class TranscriptScanner {
  /** Lines Claude Code writes that are conversation entries; Legio returns them. */
  private static final Set<String> MESSAGE_TYPES =
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

  private static final JsonFactory FACTORY = new JsonFactory();

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
          int nl = indexOf(part.bytes(), (byte) '\n', end - 1, part.length());
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

  /** Thrown inside the scan for a line that is JSON but not an entry on a line of its own. */
  private static final class NotALine extends Exception {
    NotALine() {
      super(null, null, false, false);
    }
  }

  private static Scanned scan(Chunk chunk) {
    Scanned out = new Scanned();
    byte[] buf = chunk.part().bytes();
    int end = chunk.end();
    int pos = chunk.start();
    while (pos < end) {
      int valueStart = pos;
      try (JsonParser p = FACTORY.createParser(buf, pos, end - pos)) {
        while (true) {
          JsonToken t = p.nextToken();
          if (t == null) {
            pos = end;
            break;
          }
          JsonLocation start = p.currentTokenLocation();
          valueStart = pos + (int) start.getByteOffset();
          int startLine = start.getLineNr();
          if (t != JsonToken.START_OBJECT) {
            throw new NotALine();
          }
          String type = null;
          String uuid = null;
          String parentUuid = null;
          String deletedUuid = null;
          String agentName = null;
          while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            t = p.nextToken();
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
              p.skipChildren();
            } else if (t == JsonToken.VALUE_STRING) {
              switch (name) {
                case "type" -> type = p.getText();
                case "uuid" -> uuid = p.getText();
                case "parentUuid" -> parentUuid = p.getText();
                case "deletedUuid" -> deletedUuid = p.getText();
                case "agentName" -> agentName = p.getText();
                default -> {
                  // not needed up front
                }
              }
            }
          }
          JsonLocation last = p.currentLocation();
          int after = pos + (int) last.getByteOffset();
          if (last.getLineNr() != startLine) {
            throw new NotALine(); // one value over several lines
          }
          int i = after;
          while (i < end && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')) {
            i++;
          }
          if (i == end) {
            // No newline after it: a write cut short, or one still in progress.
            out.partial = true;
            pos = end;
            break;
          }
          if (buf[i] != '\n') {
            throw new NotALine(); // something else on the same line
          }
          out.lines++;
          accept(out, chunk, type, uuid, parentUuid, deletedUuid, agentName, valueStart, after);
          valueStart = i + 1; // where the next line starts, should the next token fail
        }
      } catch (IOException | NotALine e) {
        int from = valueStart;
        while (from < end
            && (buf[from] == ' ' || buf[from] == '\t' || buf[from] == '\r' || buf[from] == '\n')) {
          from++;
        }
        int nl = indexOf(buf, (byte) '\n', from, end);
        if (nl < 0) {
          out.partial = true;
          pos = end;
        } else {
          out.malformed++;
          pos = nl + 1;
        }
      }
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

  static int indexOf(byte[] buf, byte b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
