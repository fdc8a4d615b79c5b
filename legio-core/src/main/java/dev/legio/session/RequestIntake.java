package dev.legio.session;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import dev.legio.log.NewMessage;
import java.util.Optional;

/**
 * How a request enters the log.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A request to one owner nothing in this process runs or waits for takes the owner's lease in
 *       the transaction that logs it; otherwise (a busy owner, several owners) it is logged alone
 *       and each turn takes the lease when its place comes.
 *   <li>A request with an id of its own (a {@link RequestKey}'s) whose id is in the log already is
 *       not logged again: it is the request logged before, sent again ({@link Logged#again}). It
 *       must be the same request (sender, audience, text), else it is refused with {@link
 *       RequestKeyReusedException}. Two sends racing to log it are told apart by the log's primary
 *       key: the one whose append fails finds the other's message.
 * </ul>
 */
final class RequestIntake {
  /**
   * A request in the log.
   *
   * @param leased true when the owner's lease was taken with it
   * @param again true when it was logged before (a request key sent again)
   */
  record Logged(Message message, boolean leased, boolean again) {}

  private final MessageLog messageLog;
  private final LeaseGate leases;

  RequestIntake(MessageLog messageLog, LeaseGate leases) {
    this.messageLog = messageLog;
    this.leases = leases;
  }

  /**
   * Logs {@code message}, taking {@code slot}'s lease with it when nothing of this process runs or
   * waits for it ({@code slot} null: several owners, no lease). Called holding the owners' posting
   * locks, so no other turn of theirs is queued in between.
   */
  Logged log(NewMessage message, OwnerSlot slot) {
    if (message.id() != null) {
      Optional<Message> earlier = messageLog.find(message.id());
      if (earlier.isPresent()) {
        return new Logged(sameRequest(earlier.get(), message), false, true);
      }
    }
    try {
      if (slot == null || !slot.queue.idle()) {
        return new Logged(messageLog.append(message), false, false);
      }
      SessionStore.LeasedRequest logged = leases.logAndTryTake(messageLog, message, slot.name());
      return new Logged(logged.message(), logged.leased(), false);
    } catch (MessageLogException e) {
      Optional<Message> raced =
          message.id() == null ? Optional.empty() : messageLog.find(message.id());
      if (raced.isEmpty()) {
        throw e;
      }
      return new Logged(sameRequest(raced.get(), message), false, true);
    }
  }

  private static Message sameRequest(Message earlier, NewMessage again) {
    if (!earlier.sender().equals(again.sender())
        || !earlier.audience().equals(again.audience())
        || !earlier.text().equals(again.text())) {
      throw new RequestKeyReusedException(
          "this request key was first sent with another message (request "
              + earlier.id()
              + "): a new message needs a new key");
    }
    return earlier;
  }
}
