package dev.legio.session;

import dev.legio.backend.ContextUse;
import dev.legio.backend.http.ContextSummary;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Condenses a long Claude Code CLI session before its turn, when the {@link CondensePolicy} says
 * so. Runs inside the owner's {@link TurnQueue}, holding its lease, on a session the {@link
 * SessionLifecycle} just continued or resumed.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The {@link BriefWriter} writes a brief of the old back-end conversation from its
 *       transcript. No brief (no transcript, no writer, a blank answer) or a failure to write one:
 *       nothing changes, the turn goes on in the old conversation (the failure is logged), and the
 *       next turn tries again.
 *   <li>With a brief, the live back-end session is closed and a new one opened (a new back-end
 *       conversation, with the owner's system prompt and memory as any new session); the record
 *       keeps its session id, messages and last injected sequence, gets the new back-end id, adds
 *       the old one to {@link SessionRecord#previousBackendSessionIds()}, and its token counts and
 *       context figures restart from nothing ({@link SessionRecord#condensed}). It is saved at
 *       once, so a restart resumes the new conversation.
 *   <li>The turn's message then starts with the brief as a {@code <context_summary>} block ({@link
 *       ContextSummary#block}: whatever the model wrote, it cannot close the block), so the new
 *       conversation holds it and a resume after a restart still has it.
 *   <li>Each condensing is logged and told to the session event listener ({@link
 *       SessionEventListener#condensed}).
 * </ul>
 */
final class SessionCondenser {
  private static final Logger log = LoggerFactory.getLogger(SessionCondenser.class);

  /** What a turn starts with after condensing: the brief, or nothing. */
  record Brief(String text) {
    static final Brief NONE = new Brief(null);

    /** {@code message}, after the brief's block when there is one. */
    String seed(String message) {
      return text == null ? message : ContextSummary.block(text) + "\n\n" + message;
    }
  }

  private final SessionStore store;
  private final SessionLifecycle lifecycle;
  private final BriefWriter briefs;
  private final long condenseAfterTokens;
  private final SessionEvents events;

  SessionCondenser(
      SessionStore store,
      SessionLifecycle lifecycle,
      BriefWriter briefs,
      long condenseAfterTokens,
      SessionEvents events) {
    this.store = Objects.requireNonNull(store, "store");
    this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    this.briefs = Objects.requireNonNull(briefs, "briefs");
    this.condenseAfterTokens = condenseAfterTokens;
    this.events = Objects.requireNonNull(events, "events");
  }

  /** A condenser that never condenses (for tests of the turn without it). */
  static SessionCondenser off() {
    return new SessionCondenser();
  }

  private SessionCondenser() {
    this.store = null;
    this.lifecycle = null;
    this.briefs = BriefWriter.NONE;
    this.condenseAfterTokens = 0;
    this.events = null;
  }

  /**
   * Condenses {@code slot}'s session when it is due, moving {@code slot.live} and {@code
   * slot.record} to the new conversation; returns the brief its turn starts with.
   */
  Brief condenseIfDue(OwnerSlot slot, OwnerProfile profile) {
    SessionRecord record = slot.record;
    if (briefs == BriefWriter.NONE || !CondensePolicy.due(record, condenseAfterTokens)) {
      return Brief.NONE;
    }
    ContextUse before = record.context();
    Optional<String> brief;
    try {
      brief = briefs.write(record, profile.shape());
    } catch (RuntimeException e) {
      log.warn(
          "{}: the brief to condense session {} ({} tokens) could not be written; it goes on"
              + " uncondensed",
          slot.name(),
          record.backendSessionId(),
          before.tokens(),
          e);
      return Brief.NONE;
    }
    if (brief.isEmpty() || brief.get().isBlank()) {
      log.warn(
          "{}: no brief could be written of session {} (no transcript, or an empty answer); it"
              + " goes on uncondensed",
          slot.name(),
          record.backendSessionId());
      return Brief.NONE;
    }
    String old = record.backendSessionId();
    lifecycle.closeLive(slot);
    slot.live = lifecycle.openConversation(slot, profile.shape());
    slot.record = record.condensed(slot.live.backendSessionId());
    store.save(slot.record);
    log.info(
        "{}: session {} condensed at {} tokens: back-end session {} continues from a brief of {}"
            + " (condensed {} times)",
        slot.name(),
        record.sessionId(),
        before.tokens(),
        slot.record.backendSessionId(),
        old,
        slot.record.previousBackendSessionIds().size());
    events.condensed(slot.name(), old, slot.record.backendSessionId(), before.tokens());
    return new Brief(brief.get());
  }
}
