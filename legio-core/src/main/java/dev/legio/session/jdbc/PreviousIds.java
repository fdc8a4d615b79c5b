package dev.legio.session.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.session.SessionStoreException;
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

  static List<String> fromColumn(String owner, String column) {
    if (column == null || column.isBlank()) {
      return List.of();
    }
    try {
      List<String> ids = JSON.readValue(column, STRINGS);
      return ids == null ? List.of() : ids;
    } catch (JsonProcessingException e) {
      throw new SessionStoreException(
          "the session of '"
              + owner
              + "' has previous_backend_session_ids that are not a JSON array of strings ("
              + e.getOriginalMessage()
              + "): fix or clear that column");
    }
  }
}
