package dev.legio.longterm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.legio.errors.JsonFileProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What memory extraction remembers of an agent's sessions, in the agent's memory folder as {@value
 * #FILE}, so that a restart neither repeats an extraction nor loses the tool calls counted towards
 * the next one:
 *
 * <pre>
 * {"sessions": {"0196...": {"extractions": 1, "last_extracted_at": 1795251600,
 *                           "tool_calls_since": 2, "updated_at": 1795252000}}}
 * </pre>
 *
 * Read and written only under the folder's lock ({@link MemoryFolder#locked}). A file that cannot
 * be parsed is moved aside ({@code .extraction_state.json.corrupt}) and extraction starts afresh
 * (what was appended to {@code MEMORY.md} is de-duplicated, so nothing is written twice). At most
 * {@value #MAX_SESSIONS} sessions are kept, the most recently updated.
 */
final class ExtractionState {
  static final String FILE = ".extraction_state.json";
  static final int MAX_SESSIONS = 200;
  private static final Logger log = LoggerFactory.getLogger(ExtractionState.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** One session's state. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Session(
      @JsonProperty("extractions") int extractions,
      @JsonProperty("last_extracted_at") long lastExtractedAt,
      @JsonProperty("tool_calls_since") int toolCallsSince,
      @JsonProperty("updated_at") long updatedAt) {
    static final Session NEW = new Session(0, 0, 0, 0);
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record File(@JsonProperty("sessions") Map<String, Session> sessions) {
    File {
      sessions = sessions == null ? new LinkedHashMap<>() : new LinkedHashMap<>(sessions);
    }
  }

  private ExtractionState() {}

  /** The state of the folder; call under its lock. */
  static File read(MemoryFolder folder) {
    Optional<String> text = folder.readFile(FILE);
    if (text.isEmpty()) {
      return new File(null);
    }
    try {
      File parsed = JSON.readValue(text.get(), File.class);
      return parsed == null ? new File(null) : parsed;
    } catch (IOException e) {
      try {
        Files.move(
            folder.file(FILE), folder.file(FILE + ".corrupt"), StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException moveFailed) {
        throw new UncheckedIOException(
            folder.file(FILE) + " cannot be parsed nor moved aside: " + moveFailed.getMessage(),
            moveFailed);
      }
      log.warn(
          "{} cannot be parsed ({}); moved it to {}.corrupt and starting afresh",
          folder.file(FILE),
          e instanceof JsonProcessingException j ? JsonFileProblem.of(j) : e.getMessage(),
          FILE);
      return new File(null);
    }
  }

  /** Writes the state atomically, keeping the most recently updated sessions; under the lock. */
  static void write(MemoryFolder folder, File state) throws IOException {
    Map<String, Session> kept = state.sessions();
    if (kept.size() > MAX_SESSIONS) {
      Map<String, Session> newest = new LinkedHashMap<>();
      kept.entrySet().stream()
          .sorted(
              Comparator.comparingLong((Map.Entry<String, Session> e) -> e.getValue().updatedAt())
                  .reversed())
          .limit(MAX_SESSIONS)
          .forEach(e -> newest.put(e.getKey(), e.getValue()));
      kept = newest;
    }
    folder.writeAtomically(FILE, JSON.writeValueAsString(new File(kept)) + "\n");
  }
}
