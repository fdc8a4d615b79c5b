package dev.legio.session;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies of an owner that could not answer ({@link Reply#failed()}), which the {@link
 * TurnRunner} gives instead of a turn's answer.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each names the owner, the default back-end, and the owner's description as far as it is
 *       known: the one the turn resolved, or, for a reply made outside a turn, its profile's when
 *       that resolves (else none; why is logged at debug).
 *   <li>Busy ({@link #busy}): {@code [owner] Busy with another request (why). Your message is
 *       logged; send it again shortly.}, with a warning in the log file; the request stays logged.
 *   <li>A turn that failed ({@link #failure}, {@link #error}): {@code [owner] An error occurred
 *       during processing.}, the cause being in the log file; when the cause is Legio's own store
 *       (the session store's or the message log's database failed, say PostgreSQL restarting;
 *       {@link #storeFailed}), {@link #storeFailedText} says so and to send the message again (to
 *       an agent's caller; a channel's outsider gets the generic error).
 *   <li>A turn whose answer came but could not be stored because Legio's own store failed ({@link
 *       #unstored}) gives that answer all the same, since its tokens are spent and sending the
 *       message again would pay for it twice: an agent's caller gets {@link #unstoredText}, which
 *       says the answer is not in the history and not to send the message again for it, then the
 *       answer; a channel's outsider gets the answer alone, as any answer (told of no database).
 *   <li>A turn whose lease passed to another holder ({@link #leaseLost}): {@link #leaseLostText}
 *       says that this node paused, that another node took the session over meanwhile and that this
 *       node's reply was not stored; the request is logged (it was before the turn began), and the
 *       other node may have answered it already (a turn there sees it in its history, or ran it
 *       when it was sent again), so the text does not say to send it again but to look first: an
 *       agent's caller at the history, or to send it again under the same {@code Idempotency-Key}
 *       (answered from the log when it was answered); a channel's outsider at the conversation
 *       above.
 *   <li>A turn whose lease passed to another holder after its answer came (the lease was found lost
 *       at the reply's commit or by the check after it; {@link #leaseLost(String, String, String)})
 *       gives that answer all the same, as {@link #unstored} does, since its tokens are spent: an
 *       agent's caller gets {@link #leaseLostAnswerText}, which says that the answer is not in the
 *       history, that another node now holds the session, and that it may have answered the message
 *       too, so to look at the history before sending it again; then the answer. A channel's
 *       outsider gets the answer alone, as from {@link #unstored}: the chat is where the outsider
 *       reads answers, nothing of Legio's nodes is theirs to act on, and what they asked for has
 *       come; if the other node answered too, the chat shows both answers.
 *   <li>A turn a shutdown cut ({@link #interrupted}): the {@link InterruptionNote}'s text, the note
 *       logged as the owner's reply under the id derived from the request; when it cannot be
 *       logged, the note an earlier interruption logged under that id, else none (a warning).
 *   <li>A wait for a turn that was interrupted ({@link #waitInterrupted}): {@code [owner]
 *       Interrupted.}, nothing logged.
 * </ul>
 */
final class FailedReplies {
  private static final Logger log = LoggerFactory.getLogger(FailedReplies.class);

  private final MessageLog messageLog;
  private final OwnerProfiles profiles;
  private final String backendName;

  /**
   * @param backendName the default back-end's display name, for answers no back-end gave
   */
  FailedReplies(MessageLog messageLog, OwnerProfiles profiles, String backendName) {
    this.messageLog = messageLog;
    this.profiles = profiles;
    this.backendName = backendName;
  }

  /** The answer of a turn of {@code slot}'s owner that failed. */
  Reply failure(OwnerSlot slot) {
    return Reply.failure(
        slot.name(),
        descriptionIfKnown(slot, "the failure's answer"),
        backendName,
        errorText(slot.name()));
  }

  /** The answer for {@code slot}'s owner when the wait for its turn was interrupted. */
  Reply waitInterrupted(OwnerSlot slot) {
    return Reply.failure(
        slot.name(),
        descriptionIfKnown(slot, "the interrupted answer"),
        backendName,
        "[" + slot.name() + "] Interrupted.");
  }

  /** The answer of {@code owner}'s turn that failed, its description known. */
  Reply error(String owner, String description) {
    return Reply.failure(owner, description, backendName, errorText(owner));
  }

  /**
   * The answer of {@code owner}'s turn that failed for {@code cause}, its description known: {@link
   * #storeFailedText} when Legio's own store failed and the owner is an agent; a channel's outsider
   * gets the generic error, as for any other failure.
   */
  Reply error(String owner, String description, Throwable cause) {
    return storeFailed(cause) && !Owner.of(owner).isChannel()
        ? Reply.failure(owner, description, backendName, storeFailedText(owner))
        : error(owner, description);
  }

  /**
   * The answer of a turn of {@code slot}'s owner that failed for {@code cause}, as {@link #error}.
   */
  Reply failure(OwnerSlot slot, Throwable cause) {
    return storeFailed(cause) && !slot.owner.isChannel()
        ? Reply.failure(
            slot.name(),
            descriptionIfKnown(slot, "the failure's answer"),
            backendName,
            storeFailedText(slot.name()))
        : failure(slot);
  }

  /**
   * Whether {@code cause} (or one of its causes) is a failure of Legio's own store: the session
   * store or the message log could not read or write, not a damaged row nor a lost lease.
   */
  static boolean storeFailed(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof DamagedSessionException || t instanceof LeaseLostException) {
        return false;
      }
      if (t instanceof SessionStoreException || t instanceof MessageLogException) {
        return true;
      }
    }
    return false;
  }

  /** The answer of a turn that failed because Legio's own store did. */
  static String storeFailedText(String owner) {
    return "["
        + owner
        + "] Legio's database failed while the turn ran, so no reply was stored (the log file says"
        + " why). Your message is logged; send it again.";
  }

  /**
   * The answer of {@code owner}'s turn whose {@code answer} came but could not be stored because
   * Legio's own store failed.
   */
  Reply unstored(String owner, String description, String answer) {
    return answerNotStored(owner, description, answer, FailedReplies::unstoredText);
  }

  /** What an agent's caller is told, before the answer itself, of an answer that is not stored. */
  static String unstoredText(String owner) {
    return "["
        + owner
        + "] Legio's database failed while this reply was stored, so it is not in the history"
        + " (the log file says why); your message is logged. The reply, so that you need not send"
        + " the message again for it:";
  }

  /** The answer of {@code owner}'s turn that lost its lease, its description known. */
  Reply leaseLost(String owner, String description) {
    return Reply.failure(owner, description, backendName, leaseLostText(owner));
  }

  /**
   * The answer of {@code owner}'s turn whose {@code answer} came but whose lease passed to another
   * holder before it was stored.
   */
  Reply leaseLost(String owner, String description, String answer) {
    return answerNotStored(owner, description, answer, FailedReplies::leaseLostAnswerText);
  }

  /**
   * The answer of {@code owner}'s turn whose {@code answer} came but is not stored: a channel's
   * outsider gets the answer alone; an agent's caller gets {@code whyNotStored}'s text for the
   * owner first, then the answer.
   */
  private Reply answerNotStored(
      String owner, String description, String answer, UnaryOperator<String> whyNotStored) {
    String text =
        Owner.of(owner).isChannel() ? answer : whyNotStored.apply(owner) + "\n\n" + answer;
    return Reply.failure(owner, description, backendName, text);
  }

  /**
   * What an agent's caller is told, before the answer itself, of an answer that came after the
   * turn's lease passed to another holder.
   */
  static String leaseLostAnswerText(String owner) {
    return "["
        + owner
        + "] This Legio node paused (or lost its database) for longer than [sessions]"
        + " lease_ttl_seconds while the turn ran, and another node (or process) took the session"
        + " over meanwhile, so this reply is not in the history and the session's next turns will"
        + " not know of it. Your message is logged, and the other node may have answered it too:"
        + " look at the history (legio history, GET /api/v1/history) before sending it again. The"
        + " reply, so that you need not send the message again for it:";
  }

  /** The answer of a turn that lost its lease before it could store its reply. */
  static String leaseLostText(String owner) {
    if (Owner.of(owner).isChannel()) {
      return "["
          + owner
          + "] This reply was not kept: the Legio node writing it paused, and another node took"
          + " this conversation over meanwhile. Your message was received and may have been"
          + " answered already: look above before sending it again.";
    }
    return "["
        + owner
        + "] This Legio node paused (or lost its database) for longer than [sessions]"
        + " lease_ttl_seconds while the turn ran, and another node took the session over"
        + " meanwhile; this node's reply was not stored. Your message is logged, and the other"
        + " node may have answered it already: look at the history (legio history, GET"
        + " /api/v1/history) before sending it again; an API caller may instead send it again"
        + " under the same Idempotency-Key, which answers from the log when it was answered.";
  }

  private static String errorText(String owner) {
    return "[" + owner + "] An error occurred during processing.";
  }

  /**
   * The owner's profile, for an answer that is not a turn's (it only names the agent); empty, and
   * logged, when it cannot be resolved.
   */
  Optional<OwnerProfile> profileIfKnown(OwnerSlot slot, String forWhat) {
    try {
      return Optional.of(profiles.resolve(slot.owner));
    } catch (RuntimeException e) {
      log.debug("{}: no profile for {}: {}", slot.name(), forWhat, e.getMessage());
      return Optional.empty();
    }
  }

  /** The owner's description, as {@link #profileIfKnown}; empty when unknown. */
  private String descriptionIfKnown(OwnerSlot slot, String forWhat) {
    return profileIfKnown(slot, forWhat).map(OwnerProfile::description).orElse("");
  }

  Reply busy(OwnerSlot slot, Message request, String why) {
    log.warn("{}: request {} not dispatched: {}", slot.name(), request.id(), why);
    return Reply.failure(
        slot.name(),
        descriptionIfKnown(slot, "the busy answer"),
        backendName,
        "["
            + slot.name()
            + "] Busy with another request ("
            + why
            + "). Your message is logged; send it again shortly.");
  }

  Reply interrupted(OwnerSlot slot, Message request, String description) {
    String text = InterruptionNote.text(slot.name());
    UUID id = null;
    try {
      id =
          messageLog
              .append(
                  InterruptionNote.of(
                      request, slot.name(), slot.owner.speaker(), slot.owner.replyAudience()))
              .id();
    } catch (RuntimeException e) {
      UUID noted = InterruptionNote.id(request.id(), slot.name());
      if (messageLog.find(noted).isPresent()) {
        id = noted; // interrupted before, and noted then
      } else {
        log.warn("{}: could not record the interruption", slot.name(), e);
      }
    }
    return new Reply(slot.name(), description, backendName, text, true, id);
  }
}
