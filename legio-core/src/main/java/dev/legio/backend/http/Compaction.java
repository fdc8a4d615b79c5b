package dev.legio.backend.http;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a compaction cuts a conversation, and the conversation it leaves.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The messages are grouped in API rounds: a round is what one request added and what the
 *       model answered (the user's message or the previous round's tool results, then the
 *       assistant's message and the results of the tools it called). A cut falls only between
 *       rounds, so an assistant's tool calls are never separated from their results.
 *   <li>The newest {@code keepRecent} messages are kept verbatim: the cut is the last round
 *       boundary at or before them, so a few more may be kept. With no boundary before them there
 *       is nothing to compact.
 *   <li>When the cut falls inside a turn, that turn's user message is kept too, in front of the
 *       kept rounds: every stored turn starts with the user's message, and the wire order (user,
 *       assistant with tool calls, tool results, ...) stays valid.
 *   <li>The kept turns keep their messages, usage and times, renumbered from 0; their sizes are
 *       estimated anew in the compacted conversation (what was reported was the old one's).
 * </ul>
 *
 * @param older the messages before the cut, to be summarised
 * @param kept the turns after the cut (the first possibly starting with a repeated user message),
 *     with their old indexes
 * @param messagesCompacted how many messages are no longer sent verbatim
 */
record Compaction(List<ChatMessage> older, List<ConversationTurn> kept, int messagesCompacted) {

  /** The compaction of {@code conversation} keeping {@code keepRecent} messages; empty if none. */
  static Optional<Compaction> plan(Conversation conversation, int keepRecent) {
    List<ChatMessage> all = conversation.messages();
    int target = Math.min(all.size() - 1, all.size() - Math.max(0, keepRecent));
    int cut = 0;
    for (int i = 1; i <= target; i++) {
      if (startsRound(all, i)) {
        cut = i;
      }
    }
    if (cut == 0) {
      return Optional.empty();
    }
    List<ConversationTurn> kept = new ArrayList<>();
    int start = 0;
    for (ConversationTurn turn : conversation.turns()) {
      int end = start + turn.messages().size();
      if (end > cut) {
        if (start >= cut) {
          kept.add(turn);
        } else {
          List<ChatMessage> rest = new ArrayList<>();
          rest.add(turn.messages().get(0));
          rest.addAll(turn.messages().subList(cut - start, turn.messages().size()));
          kept.add(
              new ConversationTurn(
                  turn.index(), rest, turn.usage(), turn.contextTokens(), turn.createdAt()));
        }
      }
      start = end;
    }
    int keptMessages = kept.stream().mapToInt(t -> t.messages().size()).sum();
    return Optional.of(
        new Compaction(List.copyOf(all.subList(0, cut)), kept, all.size() - keptMessages));
  }

  /** True when message {@code i} starts an API round. */
  private static boolean startsRound(List<ChatMessage> messages, int i) {
    ChatMessage m = messages.get(i);
    return m instanceof ChatMessage.User
        || (m instanceof ChatMessage.Assistant
            && messages.get(i - 1) instanceof ChatMessage.ToolResult);
  }

  /** {@code messages} grouped in API rounds, in order. */
  static List<List<ChatMessage>> rounds(List<ChatMessage> messages) {
    List<List<ChatMessage>> rounds = new ArrayList<>();
    List<ChatMessage> round = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      if (i > 0 && startsRound(messages, i)) {
        rounds.add(round);
        round = new ArrayList<>();
      }
      round.add(messages.get(i));
    }
    if (!round.isEmpty()) {
      rounds.add(round);
    }
    return rounds;
  }

  /**
   * The compacted conversation: a new id, {@code previous} as its predecessor, {@code summary} (a
   * {@link ContextSummary} block) and the kept turns; the circuit breaker reset.
   */
  Conversation conversation(UUID id, Conversation previous, String summary, Instant at) {
    Conversation next =
        new Conversation(
            id,
            previous.owner(),
            previous.backend(),
            previous.model(),
            previous.systemPrompt(),
            summary,
            previous.id(),
            at,
            List.of(),
            0,
            false);
    for (ConversationTurn turn : kept) {
      int index = next.turns().size();
      // The reported usage stays; the size after the turn is the compacted conversation's.
      long size =
          next.with(new ConversationTurn(index, turn.messages(), turn.usage(), 0, turn.createdAt()))
              .estimateTokens();
      next =
          next.with(
              new ConversationTurn(index, turn.messages(), turn.usage(), size, turn.createdAt()));
    }
    return next;
  }
}
