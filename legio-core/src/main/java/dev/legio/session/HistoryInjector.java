package dev.legio.session;

import dev.legio.agents.AgentProfile;
import dev.legio.log.Message;
import dev.legio.log.PraetoriumXml;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a turn carries to the model: the context blocks, then the request.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A fresh session's first turn carries the newest {@code history_window} messages its owner
 *       may see, logged before the request (for the legatus: the whole log), as {@code
 *       <praetorium>} XML, followed by the {@link PraetoriumXml#CONTEXT_NOTICE context notice}. No
 *       such messages: neither block.
 *   <li>A later turn of a centurio or a channel carries the messages it may see that were logged
 *       after the last one its session received and before the request, by sequence number (none
 *       twice, none skipped), at most {@code history_window} of them (the newest; the overflow is
 *       logged), minus those its own speaker wrote (the live session holds them); no notice.
 *   <li>A later turn of the legatus carries no bootstrap (its live session holds its own
 *       conversation) but, after the status block, the {@link LegatusDigest} of what it missed.
 *   <li>What a turn carries of the log is within the owner's {@link HistoryBudget}: the newest
 *       messages that fit, a very long one cut (the overflow is logged).
 *   <li>Every legatus turn carries the centuriones' status block.
 *   <li>The blocks and the request are joined by blank lines.
 * </ul>
 */
final class HistoryInjector {
  private static final Logger log = LoggerFactory.getLogger(HistoryInjector.class);

  /** The messages {@code viewer} may see, after one sequence number and before another. */
  @FunctionalInterface
  interface VisibleHistory {
    /** The newest {@code limit} such messages, oldest first (as {@code MessageLog.visibleTo}). */
    List<Message> visibleTo(String viewer, long afterSequence, long beforeSequence, int limit);
  }

  private final VisibleHistory history;
  private final Function<List<AgentProfile>, String> centurioStatus;
  private final LegatusDigest digest;

  /** An injector without the legatus's digest. */
  HistoryInjector(VisibleHistory history, Function<List<AgentProfile>, String> centurioStatus) {
    this(history, centurioStatus, LegatusDigest.OFF);
  }

  /**
   * @param centurioStatus the status block of the given centuriones, for the legatus's turns
   * @param digest what the legatus's later turns carry of what it missed
   */
  HistoryInjector(
      VisibleHistory history,
      Function<List<AgentProfile>, String> centurioStatus,
      LegatusDigest digest) {
    this.history = history;
    this.centurioStatus = centurioStatus;
    this.digest = digest;
  }

  /**
   * The text for one turn.
   *
   * @param fresh true when the session has none of the earlier context
   * @param lastInjected the sequence of the newest message the session received (ignored when
   *     fresh)
   */
  String compose(OwnerProfile profile, boolean fresh, long lastInjected, Message request) {
    Owner owner = profile.owner();
    int window = profile.limits().historyWindow();
    List<String> parts = new ArrayList<>(4);
    String viewer = owner.viewer();
    if (fresh || owner.kind() != OwnerKind.LEGATUS) {
      long after = fresh ? 0 : lastInjected;
      List<Message> messages = history.visibleTo(viewer, after, request.sequence(), window);
      if (!fresh) {
        if (messages.size() == window
            && !messages.isEmpty()
            && !history.visibleTo(viewer, after, messages.get(0).sequence(), 1).isEmpty()) {
          log.info(
              "{}: more than history_window={} new messages since its last turn; the oldest were"
                  + " not injected",
              owner.name(),
              window);
        }
        // The live session already holds what its own owner said.
        String speaker = owner.speaker();
        messages = messages.stream().filter(m -> !m.sender().equals(speaker)).toList();
      }
      List<Message> fitted = HistoryBudget.of(profile.limits().maxInputTokens()).fit(messages);
      if (fitted.size() < messages.size()) {
        log.info(
            "{}: the {} oldest of {} messages did not fit half of max_input_tokens={} and were not"
                + " injected",
            owner.name(),
            messages.size() - fitted.size(),
            messages.size(),
            profile.limits().maxInputTokens());
      }
      messages = fitted;
      if (!messages.isEmpty()) {
        parts.add(PraetoriumXml.format(messages, viewer));
        if (fresh) {
          parts.add(PraetoriumXml.CONTEXT_NOTICE);
        }
      }
    }
    if (owner.kind() == OwnerKind.LEGATUS) {
      parts.add(centurioStatus.apply(profile.centuriones()));
      if (!fresh) {
        digest.between(lastInjected, request.sequence()).ifPresent(parts::add);
      }
    }
    parts.add(request.text());
    return String.join("\n\n", parts);
  }
}
