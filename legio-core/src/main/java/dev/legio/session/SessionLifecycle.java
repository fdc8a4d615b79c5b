package dev.legio.session;

import com.fasterxml.uuid.Generators;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.config.SessionSettings;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens, continues, resumes, rebuilds and closes an owner's back-end session, and keeps its record
 * in the store in step. Runs inside the owner's {@link TurnQueue}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A stored active session that the {@link RebuildPolicy} lets continue is continued when this
 *       process holds it live; otherwise (Legio restarted, or another process replaced it) it is
 *       resumed when the back-end can, else rebuilt for {@link RebuildReason#RESTART}.
 *   <li>A live session whose stored record now names another back-end conversation (a rewind) is
 *       not continued: that conversation is resumed. Nor is one whose stored record counts turns
 *       this process did not run (another node sharing the store ran them, on a conversation both
 *       reach, an HTTP back-end's in the database): the conversation is resumed as it now stands,
 *       and what is new is counted from the stored record.
 *   <li>A rebuild closes the live session, counts the reason, and opens a new session with a new
 *       record: new session id, counters at zero, the owner's rebuild total carried on, expiring
 *       after the back-end's time to live. A first session counts no rebuild.
 *   <li>An agent's new session (not a channel's) gets its long-term memory, from the {@link
 *       MemoryPrompt}, after its system prompt; a memory that cannot be read is logged and left
 *       out.
 *   <li>Resuming a session by its id ({@link #adopt}) makes it the owner's active session again:
 *       its own record when the store still holds it (its counters and last injected sequence
 *       kept); otherwise a record for the back-end's conversation of that id (one the Claude Code
 *       CLI wrote, say), which carries nothing of the log written before it. The next turn then
 *       resumes that conversation in the back-end, carrying only what is new.
 *   <li>The stored record a turn starts from is read holding the owner's lease, after {@link
 *       UnfinishedEdits} finished any edit of its session a crash left half done (a rewind).
 *   <li>Closing marks the stored record closed with its reason (counting a rebuild reason when one
 *       is given); an owner without an active record is left as it is.
 *   <li>A damaged stored record ({@link DamagedSession}: a value in its row Legio does not write,
 *       such as an unknown state) is a session to rebuild, not a failure: the owner's next turn
 *       logs a warning naming the row and what is wrong, counts a rebuild for {@link
 *       RebuildReason#DAMAGED_RECORD} and opens a new session whose record replaces the row (its
 *       rebuild total carried on when the row's can be read), bootstrapped from the log as any new
 *       session is. A user expects the agent to answer; the earlier back-end conversation cannot be
 *       trusted from a row that is partly wrong, and the log still holds what was said. Closing it
 *       (a reset, an idle close) deletes the row, through the edit's writer, so that {@code legio
 *       reset OWNER} clears it at once. Until then listings leave it out and name it ({@link
 *       SessionListing}).
 * </ul>
 */
final class SessionLifecycle {
  private static final Logger log = LoggerFactory.getLogger(SessionLifecycle.class);

  private final SessionStore store;
  private final SessionSettings settings;
  private final MemoryPrompt memory;
  private final RebuildCounter rebuilds;

  private final long condenseAfterTokens;
  private final UnfinishedEdits unfinished;

  /**
   * @param condenseAfterTokens the token count past which a Claude CLI session is condensed rather
   *     than rebuilt; 0 when nothing condenses (no brief writer), and then the token limit holds
   * @param unfinished finishes an edit a crash left half done before a turn uses its record
   */
  SessionLifecycle(
      SessionStore store,
      SessionSettings settings,
      MemoryPrompt memory,
      RebuildCounter rebuilds,
      long condenseAfterTokens,
      UnfinishedEdits unfinished) {
    this.condenseAfterTokens = condenseAfterTokens;
    this.unfinished = unfinished;
    this.store = store;
    this.settings = settings;
    this.memory = memory;
    this.rebuilds = rebuilds;
  }

  /**
   * The owner's stored record, active or closed, once any edit of its session a crash left half
   * done is finished; called holding the owner's lease.
   *
   * @throws DamagedSessionException when the owner's row is damaged
   */
  Optional<SessionRecord> stored(String owner) {
    return Optional.ofNullable(
        unfinished.finish(store.find(owner).orElse(null), RecordWriter.plain(store)));
  }

  /** How a turn found its session. */
  enum Start {
    /** The model holds the session's earlier context (continued or resumed). */
    CONTINUED,
    /** A new session: the model has none of the earlier context. */
    FRESH;

    boolean fresh() {
      return this == FRESH;
    }
  }

  /**
   * Makes {@code slot.live} the session to use for this turn, from the owner's stored record
   * ({@link #stored}), rebuilding or resuming as the rules say; called holding the owner's lease.
   */
  Start begin(OwnerSlot slot, OwnerProfile profile, Instant now) {
    SessionRecord stored;
    try {
      stored = stored(slot.name()).orElse(null);
    } catch (DamagedSessionException e) {
      return replaceDamaged(slot, profile, e.damage(), now);
    }
    return prepare(slot, profile, stored, now);
  }

  /**
   * Replaces a damaged stored record with a new session ({@link RebuildReason#DAMAGED_RECORD}), its
   * rebuild total carried on when the row's could be read.
   */
  private Start replaceDamaged(
      OwnerSlot slot, OwnerProfile profile, DamagedSession damage, Instant now) {
    log.warn("{}: {}", slot.name(), damage.describe());
    closeLive(slot);
    long total = damage.rebuilds() + 1;
    rebuilds.count(slot.name(), RebuildReason.DAMAGED_RECORD, total);
    openNew(slot, profile.shape(), null, total, now);
    return Start.FRESH;
  }

  /**
   * Makes {@code slot.live} the session to use for this turn, rebuilding or resuming as the rules
   * say.
   */
  Start prepare(OwnerSlot slot, OwnerProfile profile, SessionRecord stored, Instant now) {
    RebuildReason reason = null;
    BackendSession opened = null;
    SessionShape shape = profile.shape();
    if (stored != null && stored.active()) {
      reason = RebuildPolicy.check(stored, profile, now, condenseAfterTokens).orElse(null);
      boolean holding =
          slot.live != null
              && slot.record != null
              && slot.record.sessionId().equals(stored.sessionId())
              // A rewind (SessionHistoryEditor) points the record at another conversation.
              && java.util.Objects.equals(slot.record.backendSessionId(), stored.backendSessionId())
              // Another node ran turns of it since this process's last.
              && slot.record.messageCount() == stored.messageCount()
              && slot.record.lastInjectedSequence() == stored.lastInjectedSequence();
      if (reason == null && holding) {
        slot.record = stored;
        return Start.CONTINUED;
      }
      if (reason == null) {
        // Legio restarted, or another process replaced or continued the session: resume it if
        // we can.
        closeLive(slot);
        if (shape.backend().canResume() && stored.backendSessionId() != null) {
          opened = shape.backend().open(spec(slot, shape, stored.backendSessionId()));
          if (opened.resumed()) {
            log.info("{}: resumed back-end session {}", slot.name(), stored.backendSessionId());
            slot.live = opened;
            slot.record = stored;
            return Start.CONTINUED;
          }
        }
        reason = RebuildReason.RESTART;
      }
    }
    closeLive(slot);
    long total = stored == null ? 0 : stored.rebuilds();
    if (reason != null) {
      total++;
      rebuilds.count(slot.name(), reason, total);
    }
    openNew(slot, shape, opened, total, now);
    return Start.FRESH;
  }

  /**
   * Makes {@code slot}'s session a new one on {@code opened} (or a back-end session opened now,
   * when null), with a new record carrying {@code rebuildTotal}, and saves that record.
   */
  private void openNew(
      OwnerSlot slot, SessionShape shape, BackendSession opened, long rebuildTotal, Instant now) {
    if (opened == null) {
      opened = shape.backend().open(spec(slot, shape, null));
    }
    slot.live = opened;
    slot.record =
        new SessionRecord(
            slot.name(),
            Generators.timeBasedEpochGenerator().generate(),
            shape.backend().kind(),
            opened.backendSessionId(),
            shape.promptHash(),
            shape.rosterHash(),
            0,
            0,
            0,
            0,
            now,
            now,
            now.plus(settings.ttlFor(shape.backend().kind())),
            SessionRecord.State.ACTIVE,
            null,
            rebuildTotal);
    store.save(slot.record);
  }

  /**
   * Makes the session {@code id} (a session id, or a back-end conversation id) {@code slot}'s
   * active session; the next turn resumes it.
   *
   * @param found the stored record of that session, if the store holds it
   * @param lastSequence the log's newest sequence number, for a conversation with no record
   */
  SessionRecord adopt(
      OwnerSlot slot,
      OwnerProfile profile,
      Optional<SessionRecord> found,
      String id,
      long lastSequence,
      Instant now) {
    closeLive(slot);
    slot.record = null;
    SessionShape shape = profile.shape();
    Instant expires = now.plus(settings.ttlFor(shape.backend().kind()));
    SessionRecord record;
    if (found.isPresent()) {
      record = found.get().reopened(now, expires);
    } else {
      UUID sessionId;
      try {
        sessionId = UUID.fromString(id);
      } catch (IllegalArgumentException notAUuid) {
        sessionId = Generators.timeBasedEpochGenerator().generate();
      }
      long total;
      try {
        total = store.find(slot.name()).map(SessionRecord::rebuilds).orElse(0L);
      } catch (DamagedSessionException e) {
        total = e.damage().rebuilds(); // the record saved below replaces the damaged row
      }
      record =
          new SessionRecord(
              slot.name(),
              sessionId,
              shape.backend().kind(),
              id,
              shape.promptHash(),
              shape.rosterHash(),
              0,
              0,
              0,
              lastSequence,
              now,
              now,
              expires,
              SessionRecord.State.ACTIVE,
              null,
              total);
    }
    store.save(record);
    log.info("{}: session {} resumed on request", slot.name(), record.sessionId());
    return record;
  }

  /**
   * Replaces a session the back-end lost during a turn with a fresh one ({@link
   * RebuildReason#BACKEND_LOST}).
   */
  void replaceLost(OwnerSlot slot, OwnerProfile profile, Instant now) {
    long total = slot.record.rebuilds() + 1;
    rebuilds.count(slot.name(), RebuildReason.BACKEND_LOST, total);
    prepare(slot, profile, slot.record.withRebuilds(total).closed("backend lost"), now);
  }

  /** Opens a new back-end conversation for {@code slot}, as any new session is opened. */
  BackendSession openConversation(OwnerSlot slot, SessionShape shape) {
    return shape.backend().open(spec(slot, shape, null));
  }

  private SessionSpec spec(OwnerSlot slot, SessionShape shape, String resumeId) {
    return new SessionSpec(
        slot.name(),
        withMemory(slot.owner, shape.systemPrompt()),
        shape.model(),
        shape.role(),
        resumeId);
  }

  /** An agent's system prompt with its long-term memory added. Channels get none. */
  private String withMemory(Owner owner, String systemPrompt) {
    if (owner.isChannel()) {
      return systemPrompt;
    }
    String block;
    try {
      block = memory.forAgent(owner.name());
    } catch (RuntimeException e) {
      log.warn(
          "{}: its long-term memory could not be read; the session opens without it",
          owner.name(),
          e);
      return systemPrompt;
    }
    return block == null || block.isBlank() ? systemPrompt : systemPrompt + "\n\n" + block;
  }

  /** Closes the back-end session this process holds for {@code slot}, if any. */
  void closeLive(OwnerSlot slot) {
    if (slot.live != null) {
      try {
        slot.live.close();
      } catch (RuntimeException e) {
        log.warn("{}: closing the back-end session failed", slot.name(), e);
      }
      slot.live = null;
    }
  }

  /**
   * Closes the owner's session in this process and marks its record closed for {@code why}.
   *
   * @param reason the rebuild to count; null to count none
   * @return false when the owner had no active session
   */
  boolean close(OwnerSlot slot, String why, RebuildReason reason) {
    return close(slot, why, reason, RecordWriter.plain(store));
  }

  /**
   * As {@link #close(OwnerSlot, String, RebuildReason)}, writing the record through {@code writer}.
   */
  private boolean close(OwnerSlot slot, String why, RebuildReason reason, RecordWriter writer) {
    closeLive(slot);
    slot.record = null;
    Optional<SessionRecord> stored;
    try {
      stored = store.find(slot.name());
    } catch (DamagedSessionException e) {
      DamagedSession damage = e.damage();
      writer.delete(slot.name());
      if (reason != null) {
        rebuilds.count(slot.name(), reason, damage.rebuilds() + 1);
      }
      log.warn(
          "{}: session closed ({}): its damaged record was deleted ({})",
          slot.name(),
          why,
          damage.problem());
      return true;
    }
    if (stored.isEmpty() || !stored.get().active()) {
      return false;
    }
    SessionRecord record = stored.get();
    long total = reason != null ? record.rebuilds() + 1 : record.rebuilds();
    writer.save(record.withRebuilds(total).closed(why));
    if (reason != null) {
      rebuilds.count(slot.name(), reason, total); // counted once written: a refused edit is none
    }
    log.info("{}: session closed: {}", slot.name(), why);
    return true;
  }

  /** Closes for {@code reason}, with its description as the why. */
  boolean close(OwnerSlot slot, RebuildReason reason) {
    return close(slot, reason.description(), reason);
  }

  /** Closes for {@code reason} (a reset), writing the record through an edit's {@code writer}. */
  boolean close(OwnerSlot slot, RebuildReason reason, RecordWriter writer) {
    return close(slot, reason.description(), reason, writer);
  }
}
