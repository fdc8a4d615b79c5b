package dev.legio.session;

import dev.legio.backend.TokenEstimator;
import dev.legio.config.LegatusSettings;
import dev.legio.log.Message;
import dev.legio.log.Names;
import dev.legio.log.PraetoriumXml;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What the legatus missed between two of its turns: the {@code <praetorium recent="true"
 * viewer="legatus">} block its live session's next turn carries ({@code [legatus] digest}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>It holds the messages logged after the last one the legatus's session received and before
 *       the request, by sequence number, so none is carried twice and none skipped (as the
 *       centuriones' injection).
 *   <li>Left out, because they passed through the legatus's own conversation: what the legatus
 *       wrote to caesar or to centuriones (its answers, its dispatches), and the answers to those
 *       (a dispatch's answer came back as the tool's result). Kept: caesar with the centuriones,
 *       the centuriones to all, every channel's messages (also the legatus's answers to a channel:
 *       a channel session is another conversation), a request to the legatus that never reached it.
 *   <li>At most {@code digest_max_tokens} (estimated by {@link TokenEstimator}, the line about what
 *       was left out included): the newest are kept. When some are left out, one line after the
 *       block says how many and that {@code get_history} has them.
 *   <li>Nothing to carry, or {@code digest = false}: no block.
 * </ul>
 */
final class LegatusDigest {
  /** No digest. */
  static final LegatusDigest OFF =
      new LegatusDigest((viewer, after, before, limit) -> List.of(), 0);

  private final HistoryInjector.VisibleHistory history;
  private final int maxTokens;

  /**
   * @param maxTokens the most tokens the digest may take; 0: no digest
   */
  LegatusDigest(HistoryInjector.VisibleHistory history, int maxTokens) {
    this.history = history;
    this.maxTokens = maxTokens;
  }

  /** The digest {@code [legatus]} asks for. */
  static LegatusDigest of(HistoryInjector.VisibleHistory history, LegatusSettings settings) {
    return settings.digest() ? new LegatusDigest(history, settings.digestMaxTokens()) : OFF;
  }

  /**
   * The digest for a legatus turn whose session last received {@code lastInjected}, for the request
   * numbered {@code requestSequence}; empty when there is nothing to carry.
   */
  Optional<String> between(long lastInjected, long requestSequence) {
    if (maxTokens <= 0 || requestSequence - lastInjected <= 1) {
      return Optional.empty();
    }
    // Every message costs at least one token, so no more than maxTokens of them can fit.
    List<Message> fetched =
        history.visibleTo(Names.LEGATUS, lastInjected, requestSequence, maxTokens);
    boolean moreBefore =
        fetched.size() == maxTokens
            && !history
                .visibleTo(Names.LEGATUS, lastInjected, fetched.get(0).sequence(), 1)
                .isEmpty();
    List<Message> missed = notInItsConversation(fetched);
    if (missed.isEmpty()) {
      return Optional.empty();
    }
    int kept = missed.size();
    String digest = render(missed, 0, moreBefore);
    // Drop the oldest until it fits: estimate first, then check the text itself.
    long total = TokenEstimator.of(digest);
    int from = 0;
    while (total > maxTokens && from < kept) {
      total -= TokenEstimator.of(PraetoriumXml.format(List.of(missed.get(from)), Names.LEGATUS));
      from++;
      if (total <= maxTokens || from == kept) {
        digest = render(missed, from, moreBefore);
        total = TokenEstimator.of(digest);
      }
    }
    return from == kept ? Optional.of(omitted(kept, moreBefore)) : Optional.of(digest);
  }

  private static String render(List<Message> missed, int from, boolean moreBefore) {
    String block = PraetoriumXml.format(missed.subList(from, missed.size()), Names.LEGATUS);
    return from == 0 && !moreBefore ? block : block + "\n" + omitted(from, moreBefore);
  }

  /** The line saying what was left out. */
  static String omitted(int count, boolean more) {
    return (more ? "More than " + count : String.valueOf(count))
        + " earlier message"
        + (count == 1 && !more ? "" : "s")
        + " since your last turn left out; get_history has them.";
  }

  /** The messages that did not pass through the legatus's own conversation, in log order. */
  private static List<Message> notInItsConversation(List<Message> messages) {
    Set<UUID> itsOwn = new HashSet<>();
    List<Message> missed = new ArrayList<>(messages.size());
    for (Message m : messages) {
      if (m.sender().equals(Names.LEGATUS) && !toAChannel(m)) {
        itsOwn.add(m.id());
      } else if (m.replyTo() == null || !itsOwn.contains(m.replyTo())) {
        missed.add(m);
      }
    }
    return missed;
  }

  private static boolean toAChannel(Message m) {
    return m.audience().names().stream().anyMatch(name -> Owner.of(name).isChannel());
  }
}
