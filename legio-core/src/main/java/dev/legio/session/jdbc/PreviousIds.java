package dev.legio.session.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.errors.JsonFileProblem;
import java.util.List;

/**
 * The column {@code sessions.previous_backend_session_ids}: a session's earlier back-end ids as a
 * JSON array of strings, oldest first; NULL for none (and read back as none).
 */
final class PreviousIds {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

  private PreviousIds() {}

  static String toColumn(List<String> ids) {
    if (ids.isEmpty()) {
      return null;
    }
    try {
      return JSON.writeValueAsString(ids);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a list of strings is always JSON", e);
    }
  }

  /**
   * The ids a column holds.
   *
   * @throws SessionRows.WrongValue when it is not a JSON array of strings, saying why
   */
  static List<String> fromColumn(String column) {
    if (column == null || column.isBlank()) {
      return List.of();
    }
    try {
      List<String> ids = JSON.readValue(column, STRINGS);
      return ids == null ? List.of() : ids;
    } catch (JsonProcessingException e) {
      throw new SessionRows.WrongValue(
          "is not a JSON array of strings (" + JsonFileProblem.of(e) + ")");
    }
  }
}
