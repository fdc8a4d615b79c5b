package dev.legio.app.server;

import dev.legio.backend.ContextUse;
import dev.legio.log.Message;
import dev.legio.memoria.MemoryEntry;
import dev.legio.session.DamagedSession;
import dev.legio.session.Owner;
import dev.legio.session.Reply;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStatus;
import dev.legio.transcript.TranscriptEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the API shows Legio's values as JSON: one method per value, field names in snake_case,
 * timestamps as ISO-8601 strings, ids as strings. Texts go out exactly as stored.
 */
final class Views {
  private Views() {}

  static Map<String, Object> message(Message m) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", m.id().toString());
    out.put("sequence", m.sequence());
    out.put("sender", m.sender());
    out.put("audience", List.copyOf(m.audience().names()));
    out.put("text", m.text());
    out.put("timestamp", m.timestamp().toString());
    out.put("reply_to", m.replyTo() == null ? null : m.replyTo().toString());
    return out;
  }

  static Map<String, Object> request(Message m) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", m.id().toString());
    out.put("sequence", m.sequence());
    return out;
  }

  /** A reply; {@code sequence} is the logged reply's (null when nothing was logged). */
  static Map<String, Object> reply(Reply r, Long sequence) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("agent", r.agent());
    out.put("description", r.description());
    out.put("text", r.text());
    out.put("id", r.messageId() == null ? null : r.messageId().toString());
    out.put("sequence", sequence);
    out.put("error", r.failed());
    return out;
  }

  static Map<String, Object> status(SessionStatus s) {
    SessionRecord r = s.record();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("owner", s.owner());
    out.put("kind", Owner.of(s.owner()).isChannel() ? "channel" : "agent");
    out.put("description", s.description());
    out.put("status", s.activity());
    out.put("session", r == null ? "none" : r.active() ? "active" : "closed");
    out.put("close_reason", r == null ? null : r.closeReason());
    out.put("session_id", r == null ? null : r.sessionId().toString());
    out.put("age_seconds", s.age() == null ? null : s.age().toSeconds());
    out.put("input_tokens", r == null ? 0 : r.inputTokens());
    out.put("context", r != null && r.active() ? context(r.context()) : null);
    out.put("messages", r == null ? 0 : r.messageCount());
    out.put("rebuilds", r == null ? 0 : r.rebuilds());
    out.put("previous_backend_session_ids", r == null ? List.of() : r.previousBackendSessionIds());
    out.put("backend", r == null ? null : r.backend());
    return out;
  }

  /**
   * A session row that cannot be read as a record: its owner, its session id as stored, what is
   * wrong and what to do.
   */
  static Map<String, Object> damaged(DamagedSession d) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("owner", d.owner());
    out.put("session_id", d.sessionId());
    out.put("problem", d.problem());
    out.put("fix", d.fix());
    return out;
  }

  static Map<String, Object> context(ContextUse c) {
    if (c == null) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("tokens", c.tokens());
    out.put("window", c.window());
    out.put("compaction_failures", c.compactionFailures());
    out.put("auto_compact_off", c.compactionDisabled());
    return out;
  }

  static Map<String, Object> record(SessionRecord r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("session_id", r.sessionId().toString());
    out.put("owner", r.owner());
    out.put("state", r.active() ? "active" : "closed");
    out.put("close_reason", r.closeReason());
    out.put("backend", r.backend());
    out.put("input_tokens", r.inputTokens());
    out.put("output_tokens", r.outputTokens());
    out.put("messages", r.messageCount());
    out.put("rebuilds", r.rebuilds());
    out.put("backend_session_id", r.backendSessionId());
    out.put("previous_backend_session_ids", r.previousBackendSessionIds());
    out.put("context", context(r.context()));
    out.put("created_at", time(r.createdAt()));
    out.put("last_active_at", time(r.lastActiveAt()));
    out.put("expires_at", time(r.expiresAt()));
    return out;
  }

  static Map<String, Object> transcriptEntry(int index, TranscriptEntry e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("index", index);
    out.put("uuid", e.uuid());
    out.put("type", e.type());
    out.put("role", e.role());
    out.put("text", e.text());
    out.put("timestamp", time(e.timestamp()));
    return out;
  }

  static Map<String, Object> memoryEntry(MemoryEntry e) {
    Map<String, Object> out = summary(e);
    List<Map<String, Object>> notes = new ArrayList<>();
    for (MemoryEntry.Note n : e.notes()) {
      Map<String, Object> note = new LinkedHashMap<>();
      note.put("author", n.author());
      note.put("timestamp", time(n.timestamp()));
      note.put("text", n.text());
      notes.add(note);
    }
    out.put("notes", notes);
    if (e.revocation() != null) {
      Map<String, Object> rev = new LinkedHashMap<>();
      rev.put("by", e.revocation().by());
      rev.put("timestamp", time(e.revocation().timestamp()));
      rev.put("reason", e.revocation().reason());
      out.put("revocation", rev);
    }
    return out;
  }

  static Map<String, Object> memorySummary(MemoryEntry e) {
    return summary(e);
  }

  private static Map<String, Object> summary(MemoryEntry e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", e.kind().plural());
    out.put("name", e.name());
    out.put("author", e.author());
    out.put("created_at", time(e.createdAt()));
    out.put("updated_at", time(e.updatedAt()));
    out.put("revoked", e.revoked());
    return out;
  }

  static String time(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
