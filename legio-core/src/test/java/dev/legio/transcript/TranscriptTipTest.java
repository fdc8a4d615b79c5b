package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TranscriptTip} reads backwards from the end what loading the whole transcript gives as its
 * last standing entry: over random parts of messages (short and longer than several blocks),
 * tombstones (of entries in the same part or an earlier one), metadata, malformed and blank lines,
 * and a last line cut short.
 */
class TranscriptTipTest {
  private static final String[] MESSAGE_TYPES = {"user", "assistant", "summary", "system"};

  @TempDir Path dir;

  @Property(tries = 300)
  void agreesWithTheLoadedTranscriptsLastEntry(@ForAll long seed) throws IOException {
    Random random = new Random(seed);
    Path folder = Files.createTempDirectory("tip"); // jqwik's tries get no @TempDir
    List<String> uuids = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    List<TranscriptScanner.Part> parts = new ArrayList<>();
    int partCount = 1 + random.nextInt(3);
    for (int k = 0; k < partCount; k++) {
      StringBuilder text = new StringBuilder();
      int lines = random.nextInt(8);
      for (int i = 0; i < lines; i++) {
        text.append(line(random, uuids)).append('\n');
      }
      if (k == partCount - 1 && random.nextInt(4) == 0) {
        String cut = line(random, uuids);
        // A write cut short: no newline, sometimes after the whole object.
        text.append(cut, 0, random.nextBoolean() ? cut.length() : random.nextInt(cut.length() + 1));
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      Path path = folder.resolve("part" + k + ".jsonl");
      Files.write(path, bytes);
      paths.add(path);
      parts.add(new TranscriptScanner.Part(path.toString(), bytes, bytes.length));
    }

    String expected = null;
    List<TranscriptEntry> entries = TranscriptScanner.load("s", parts).entries();
    for (int i = entries.size() - 1; i >= 0 && expected == null; i--) {
      if (parsesAsUuid(entries.get(i).uuid())) {
        expected = entries.get(i).uuid();
      }
    }
    UUID tip = TranscriptTip.of(paths);
    for (Path path : paths) {
      Files.delete(path);
    }
    Files.delete(folder);
    assertThat(tip == null ? null : tip.toString()).isEqualTo(expected);
  }

  /** The oracle's own check: Claude Code chains by UUIDs, so an entry with another id is no tip. */
  private static boolean parsesAsUuid(String id) {
    if (id == null) {
      return false;
    }
    try {
      UUID.fromString(id);
      return true;
    } catch (IllegalArgumentException notAUuid) {
      return false;
    }
  }

  @Test
  void anEmptyOrMissingTranscriptHasNoTip() throws IOException {
    assertThat(TranscriptTip.of(List.of())).isNull();
    Path empty = Files.createFile(dir.resolve("empty.jsonl"));
    assertThat(TranscriptTip.of(List.of(empty))).isNull();
  }

  @Test
  void aLastLineLongerThanManyBlocksIsReadWhole() throws IOException {
    UUID uuid = UUID.randomUUID();
    String body = "x".repeat(TranscriptTip.FIRST_BLOCK * 20);
    Path part = dir.resolve("long.jsonl");
    Files.writeString(
        part,
        "{\"type\":\"user\",\"uuid\":\""
            + UUID.randomUUID()
            + "\"}\n{\"type\":\"assistant\",\"uuid\":\""
            + uuid
            + "\",\"message\":{\"content\":\""
            + body
            + "\"}}\n");
    assertThat(TranscriptTip.of(List.of(part))).isEqualTo(uuid);
  }

  private static String line(Random random, List<String> uuids) {
    return switch (random.nextInt(10)) {
      case 0, 1, 2, 3, 4 -> {
        String uuid = random.nextInt(12) == 0 ? "not-a-uuid" : UUID.randomUUID().toString();
        uuids.add(uuid);
        String type = MESSAGE_TYPES[random.nextInt(MESSAGE_TYPES.length)];
        String idField = random.nextInt(15) == 0 ? "" : "\"uuid\":\"" + uuid + "\",";
        int length = random.nextInt(3) == 0 ? random.nextInt(40_000) : random.nextInt(200);
        yield "{\"type\":\""
            + type
            + "\","
            + idField
            + "\"message\":{\"content\":\""
            + "a\\\"b\\n".repeat(length / 6)
            + "\"}}";
      }
      case 5, 6 ->
          uuids.isEmpty()
              ? "{\"type\":\"agent-name\",\"agentName\":\"vorenus\"}"
              : "{\"type\":\"tombstone\",\"uuid\":\""
                  + UUID.randomUUID()
                  + "\",\"deletedUuid\":\""
                  + uuids.get(random.nextInt(uuids.size()))
                  + "\"}";
      case 7 -> "{\"type\":\"progress\",\"uuid\":\"" + UUID.randomUUID() + "\"}";
      case 8 -> random.nextBoolean() ? "   " : "";
      default -> "{\"type\":\"user\",\"uuid\":\"" + UUID.randomUUID() + "\" oops";
    };
  }
}
