package dev.legio.log.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.log.Audience;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The audience column: a JSON array of names, as Legio stores it. */
final class AudienceJson {
  /** Buffers shared by all threads (every message read on a virtual thread of its own). */
  private static final ObjectMapper JSON =
      new ObjectMapper(
          JsonFactory.builder()
              .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
              .build());

  private AudienceJson() {}

  static String write(Audience audience) {
    try {
      return JSON.writeValueAsString(audience.names());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reads a stored audience; a value that is not a JSON array of strings is taken as one name. */
  static Audience read(String stored) {
    if (stored != null && stored.startsWith("[")) {
      try {
        String[] names = JSON.readValue(stored, String[].class);
        if (names.length > 0) {
          return new Audience(new LinkedHashSet<>(List.of(names)));
        }
      } catch (IOException notAnArray) {
        // fall through: keep the raw value rather than lose the message
      }
    }
    return new Audience(Set.of(String.valueOf(stored)));
  }
}
