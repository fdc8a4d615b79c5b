package dev.legio.longterm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.errors.JsonFileProblem;
import dev.legio.files.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;

/**
 * An agent's {@code .consolidation_state.json}: when its memory was last consolidated.
 *
 * <p>The file is exactly {@code {"last_consolidated_at": <unix seconds>, "lock_etag": null}},
 * written atomically after each successful run. A missing file means never run. A file that cannot
 * be read as that is reported ({@link Read#problem()}), copied beside it as {@code
 * .consolidation_state.json.malformed} (never deleted; a later, different bad file gets a copy with
 * a time suffix) and treated as never run; the next successful run replaces it.
 *
 * @param lastConsolidatedAt the end of the last successful run (whole seconds), or null for never
 */
public record ConsolidationState(Instant lastConsolidatedAt) {
  public static final String FILE_NAME = ".consolidation_state.json";
  static final String MALFORMED_COPY = FILE_NAME + ".malformed";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What reading the state gave.
   *
   * @param problem null when the file was absent or good; else what was wrong and where the copy is
   */
  public record Read(ConsolidationState state, String problem) {}

  /** The state's JSON, exactly as written to disk (with a final newline). */
  public String json() {
    return "{\"last_consolidated_at\": "
        + lastConsolidatedAt.getEpochSecond()
        + ", \"lock_etag\": null}\n";
  }

  /** Reads the state in {@code folder}; never throws for a bad file (see the class comment). */
  public static Read read(Path folder) {
    Path file = folder.resolve(FILE_NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (java.nio.file.NoSuchFileException e) {
      return new Read(new ConsolidationState(null), null);
    } catch (IOException e) {
      return new Read(
          new ConsolidationState(null),
          file + " cannot be read (" + e.getMessage() + "); treated as never consolidated");
    }
    String why = check(bytes);
    if (why == null) {
      try {
        long seconds = JSON.readTree(bytes).get("last_consolidated_at").longValue();
        return new Read(new ConsolidationState(Instant.ofEpochSecond(seconds)), null);
      } catch (IOException e) {
        why = e.getMessage();
      }
    }
    String copy = keepCopy(folder, bytes);
    return new Read(
        new ConsolidationState(null),
        file
            + " is malformed ("
            + why
            + "); treated as never consolidated"
            + (copy == null ? "" : "; a copy is kept as " + copy)
            + ". The next successful consolidation rewrites it.");
  }

  /** Why the bytes are not a state file, or null when they are one. */
  private static String check(byte[] bytes) {
    JsonNode node;
    try {
      node = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return "not JSON: "
          + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
              ? JsonFileProblem.of(j)
              : e.getMessage());
    }
    if (node == null || !node.isObject()) {
      return "not a JSON object";
    }
    JsonNode at = node.get("last_consolidated_at");
    if (at == null || !at.isIntegralNumber() || !at.canConvertToLong() || at.longValue() < 0) {
      return "\"last_consolidated_at\" is not a Unix time in seconds";
    }
    return null;
  }

  private static String keepCopy(Path folder, byte[] bytes) {
    try {
      Path copy = folder.resolve(MALFORMED_COPY);
      if (Files.exists(copy)) {
        if (Arrays.equals(Files.readAllBytes(copy), bytes)) {
          return copy.getFileName().toString();
        }
        copy = folder.resolve(MALFORMED_COPY + "-" + Instant.now().getEpochSecond());
      }
      AtomicFile.write(copy, bytes);
      return copy.getFileName().toString();
    } catch (IOException e) {
      return null;
    }
  }

  /** Writes the state atomically into {@code folder}. */
  public void write(Path folder) throws IOException {
    AtomicFile.write(folder.resolve(FILE_NAME), json());
  }
}
