package dev.legio.task;

import com.fasterxml.uuid.Generators;
import dev.legio.agents.AgentProfile;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.config.SessionSettings;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which session a task's turn runs in. Runs under the (key, agent) slot's lock.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The stored session of (key, agent) is usable when it has not expired (its expiry is after
 *       now), runs on the back-end kind the agent now names, and was opened with the agent's
 *       current prompt file (same hash). Otherwise a new session opens (new session id, counters at
 *       zero); the old record is replaced when the turn completes.
 *   <li>A usable session this process holds live (same session, same turn count, same back-end
 *       conversation) is continued. Else it is resumed by its back-end id when the back-end can
 *       resume and still has that conversation; else a new one opens.
 *   <li>Task sessions open with the agent's own prompt only (no roster, no long-term memory, no
 *       praetorium) and the {@link SessionSpec#CHAT_ROLE chat} role.
 * </ul>
 */
final class TaskSessionOpener {
  private static final Logger log = LoggerFactory.getLogger(TaskSessionOpener.class);

  private final ModelBackend backend;
  private final Function<String, ModelBackend> backendsByKind;
  private final TaskSessionStore records;
  private final SessionSettings settings;

  TaskSessionOpener(
      ModelBackend backend,
      Function<String, ModelBackend> backendsByKind,
      TaskSessionStore records,
      SessionSettings settings) {
    this.backend = backend;
    this.backendsByKind = backendsByKind;
    this.records = records;
    this.settings = settings;
  }

  /**
   * Makes {@code slot.live} the session of this turn: the one held live, the stored one resumed, or
   * a new one. True when the turn continues the earlier conversation.
   */
  boolean prepare(
      TaskSlot slot, String key, AgentProfile profile, ModelBackend model, Instant now) {
    TaskSessionRecord stored = records.find(key, profile.name()).orElse(null);
    boolean usable =
        stored != null
            && stored.liveAt(now)
            && stored.backend().equals(model.kind())
            && stored.promptHash().equals(profile.promptHash());
    if (usable) {
      boolean holding =
          slot.live != null
              && slot.record != null
              && slot.record.sessionId().equals(stored.sessionId())
              && slot.record.turns() == stored.turns()
              && Objects.equals(slot.record.backendSessionId(), stored.backendSessionId());
      if (holding) {
        slot.record = stored;
        return true;
      }
      closeLive(slot);
      if (model.canResume() && stored.backendSessionId() != null) {
        BackendSession opened = model.open(spec(profile, stored.backendSessionId()));
        if (opened.resumed()) {
          slot.live = opened;
          slot.record = stored;
          return true;
        }
        log.info(
            "task session {} of {}: the back-end no longer has conversation {}; starting anew",
            key,
            profile.name(),
            stored.backendSessionId());
        open(slot, key, profile, model, opened, now);
        return false;
      }
    }
    closeLive(slot);
    open(slot, key, profile, model, null, now);
    return false;
  }

  void open(
      TaskSlot slot,
      String key,
      AgentProfile profile,
      ModelBackend model,
      BackendSession opened,
      Instant now) {
    slot.live = opened != null ? opened : model.open(spec(profile, null));
    slot.record =
        new TaskSessionRecord(
            key,
            profile.name(),
            Generators.timeBasedEpochGenerator().generate(),
            model.kind(),
            slot.live.backendSessionId(),
            profile.promptHash(),
            profile.model(),
            0,
            0,
            0,
            now,
            now,
            now.plus(settings.ttlFor(model.kind())));
  }

  private static SessionSpec spec(AgentProfile profile, String resumeId) {
    return new SessionSpec(
        profile.name(), profile.prompt(), profile.model(), TaskSessions.ROLE, resumeId);
  }

  ModelBackend backendFor(AgentProfile profile) {
    String kind = profile.backend();
    if (kind == null || kind.equals(backend.kind())) {
      return backend;
    }
    if (backendsByKind == null) {
      throw new IllegalStateException(
          profile.file()
              + " names back-end '"
              + kind
              + "', but only '"
              + backend.kind()
              + "' runs");
    }
    return backendsByKind.apply(kind);
  }

  static void closeLive(TaskSlot slot) {
    if (slot.live != null) {
      try {
        slot.live.close();
      } catch (RuntimeException e) {
        log.warn("closing a task session's back-end session failed", e);
      }
      slot.live = null;
    }
  }
}
