package dev.legio.transcript;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.log.Timestamps;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes a {@link NewEntry} as one line of Claude Code's session format: {@code type} and {@code
 * uuid} first, then {@code parentUuid} and the fields every message carries ({@code isSidechain},
 * {@code userType}, {@code cwd}, {@code sessionId}, {@code version}, {@code timestamp}), then the
 * entry's own. A {@code tombstone} (Legio's own type) carries the uuid it deletes; an {@code
 * agent-name} entry only the name, the session and, when it has one, the session's creation as its
 * {@code timestamp} (to the microsecond, as the session store keeps a record's creation), not the
 * time of the write.
 */
final class EntryLineWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String cwd;

  /**
   * @param cwd the working directory the sessions belong to, written in every message
   */
  EntryLineWriter(String cwd) {
    this.cwd = cwd;
  }

  /**
   * {@code entry} as one line (no newline), in session {@code sessionId}, written at {@code
   * timestamp}.
   */
  byte[] line(NewEntry entry, String sessionId, String timestamp) {
    ByteArrayBuilder out = new ByteArrayBuilder(256);
    try (JsonGenerator g = JSON.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      switch (entry) {
        case NewEntry.Message m -> {
          g.writeStringField("type", m.type());
          g.writeStringField("uuid", m.uuid().toString());
          nullable(g, "parentUuid", m.parentUuid());
          common(g, sessionId, timestamp);
          g.writeFieldName("message");
          JSON.writeTree(g, m.message());
        }
        case NewEntry.Tombstone t -> {
          g.writeStringField("type", "tombstone");
          g.writeStringField("uuid", t.uuid().toString());
          g.writeStringField("deletedUuid", t.deletedUuid().toString());
          g.writeStringField("sessionId", sessionId);
          g.writeStringField("timestamp", timestamp);
        }
        case NewEntry.Summary s -> {
          g.writeStringField("type", "summary");
          g.writeStringField("uuid", s.uuid().toString());
          nullable(g, "parentUuid", s.parentUuid());
          common(g, sessionId, timestamp);
          g.writeNumberField("messagesCompacted", s.messagesCompacted());
          g.writeStringField("summary", s.summary());
        }
        case NewEntry.AgentName a -> {
          g.writeStringField("type", "agent-name");
          g.writeStringField("agentName", a.agentName());
          g.writeStringField("sessionId", sessionId);
          if (a.sessionCreated() != null) {
            g.writeStringField("timestamp", Timestamps.truncate(a.sessionCreated()).toString());
          }
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private void common(JsonGenerator g, String sessionId, String timestamp) throws IOException {
    g.writeBooleanField("isSidechain", false);
    g.writeStringField("userType", "external");
    g.writeStringField("cwd", cwd);
    g.writeStringField("sessionId", sessionId);
    g.writeStringField("version", FileTranscriptStore.VERSION);
    g.writeStringField("timestamp", timestamp);
  }

  private static void nullable(JsonGenerator g, String name, Object value) throws IOException {
    if (value == null) {
      g.writeNullField(name);
    } else {
      g.writeStringField(name, value.toString());
    }
  }
}
