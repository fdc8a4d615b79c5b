package dev.legio.session;

import dev.legio.log.MessageLog;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Continues a session by its id ({@code legio chat --resume ID}, the API's resume).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The id is a session id Legio keeps (its record in the store, any owner's) or the id of a
 *       back-end conversation: a record whose back-end conversation it is, else a conversation
 *       Legio has no record of (a transcript the Claude Code CLI wrote), which becomes the given
 *       owner's.
 *   <li>The owner's back-end must be able to resume conversations; a record without a back-end
 *       conversation cannot be resumed. Both are refused with what to do.
 *   <li>The owner's next turn resumes that very conversation in the back-end and carries only what
 *       is new (no bootstrap, no notice): {@link SessionLifecycle#adopt} makes the record active,
 *       in the owner's turn order (it waits for a turn in progress).
 * </ul>
 */
final class SessionResumer {
  private final SessionStore store;
  private final OwnerProfiles profiles;
  private final SessionLifecycle lifecycle;
  private final MessageLog messageLog;
  private final Clock clock;
  private final Function<Owner, OwnerSlot> slots;

  SessionResumer(
      SessionStore store,
      OwnerProfiles profiles,
      SessionLifecycle lifecycle,
      MessageLog messageLog,
      Clock clock,
      Function<Owner, OwnerSlot> slots) {
    this.store = store;
    this.profiles = profiles;
    this.lifecycle = lifecycle;
    this.messageLog = messageLog;
    this.clock = clock;
    this.slots = slots;
  }

  SessionEngine.Resumed resume(String id, String owner) {
    Objects.requireNonNull(id, "id");
    Optional<SessionRecord> found =
        store.list().stream()
            .filter(r -> r.sessionId().toString().equals(id) || id.equals(r.backendSessionId()))
            .findFirst();
    String name = found.map(SessionRecord::owner).orElse(owner);
    Owner who = Owner.of(name);
    OwnerSlot slot = slots.apply(who);
    OwnerProfile profile = profiles.resolve(who);
    if (!profile.shape().backend().canResume()) {
      throw new IllegalArgumentException(
          "the "
              + profile.shape().backend().displayName()
              + " back-end cannot resume a conversation; choose one that can (claude-cli,"
              + " anthropic, openai, ollama)");
    }
    if (found.isPresent() && found.get().backendSessionId() == null) {
      throw new IllegalArgumentException(
          "session " + id + " has no back-end conversation to resume");
    }
    SessionRecord record =
        slot.queue.run(
            slot.queue.enqueue(),
            () ->
                lifecycle.adopt(
                    slot, profile, found, id, messageLog.lastSequence(), clock.instant()));
    return new SessionEngine.Resumed(
        name, record.sessionId(), record.backendSessionId(), found.isPresent());
  }
}
