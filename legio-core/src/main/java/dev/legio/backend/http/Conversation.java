package dev.legio.backend.http;

import dev.legio.backend.TokenEstimator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A conversation Legio holds for a back-end that keeps none itself (the HTTP APIs): everything that
 * is sent with each request, so that after a restart the same conversation is sent again.
 *
 * @param id the conversation's id; it is the back-end session id of the Legio session using it
 * @param owner the agent or channel the conversation belongs to
 * @param backend the kind of back-end ({@code anthropic}, {@code openai}, {@code ollama})
 * @param model the model the conversation was started with
 * @param systemPrompt the system prompt
 * @param summary a summary of an earlier conversation this one continues, sent after the system
 *     prompt; null when the conversation started afresh
 * @param previousId the conversation that {@code summary} condenses; null when none
 * @param turns the completed turns, in order
 * @param compactionFailures consecutive failed compactions of this conversation (and of the ones it
 *     continues); 0 after a compaction worked. It survives restarts, as the circuit breaker needs.
 * @param compactionDisabled true when auto-compact is off for this conversation's session, after
 *     {@code [context] max_compaction_failures} failures in a row; it stays off until the session
 *     starts a new conversation (a reset or rebuild)
 */
public record Conversation(
    UUID id,
    String owner,
    String backend,
    String model,
    String systemPrompt,
    String summary,
    UUID previousId,
    Instant createdAt,
    List<ConversationTurn> turns,
    int compactionFailures,
    boolean compactionDisabled) {

  public Conversation {
    Objects.requireNonNull(id, "id");
    if (compactionFailures < 0) {
      throw new IllegalArgumentException("compactionFailures cannot be negative");
    }
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    Objects.requireNonNull(createdAt, "createdAt");
    turns = List.copyOf(turns);
    for (int i = 0; i < turns.size(); i++) {
      if (turns.get(i).index() != i) {
        throw new IllegalArgumentException(
            "conversation " + id + ": turn " + i + " has index " + turns.get(i).index());
      }
    }
  }

  /** A conversation whose compactions have not failed. */
  public Conversation(
      UUID id,
      String owner,
      String backend,
      String model,
      String systemPrompt,
      String summary,
      UUID previousId,
      Instant createdAt,
      List<ConversationTurn> turns) {
    this(id, owner, backend, model, systemPrompt, summary, previousId, createdAt, turns, 0, false);
  }

  /** Every message of every turn, in order. */
  public List<ChatMessage> messages() {
    List<ChatMessage> all = new ArrayList<>();
    for (ConversationTurn turn : turns) {
      all.addAll(turn.messages());
    }
    return all;
  }

  /** This conversation with one more turn. */
  public Conversation with(ConversationTurn turn) {
    List<ConversationTurn> more = new ArrayList<>(turns);
    more.add(turn);
    return new Conversation(
        id,
        owner,
        backend,
        model,
        systemPrompt,
        summary,
        previousId,
        createdAt,
        more,
        compactionFailures,
        compactionDisabled);
  }

  /** This conversation with another circuit-breaker state. */
  public Conversation withCompactionState(int failures, boolean disabled) {
    return new Conversation(
        id,
        owner,
        backend,
        model,
        systemPrompt,
        summary,
        previousId,
        createdAt,
        turns,
        failures,
        disabled);
  }

  /**
   * The conversation's size in tokens: as the back-end reported it after the last turn, or
   * estimated when it reported nothing (or there is no turn yet).
   */
  public long contextTokens() {
    if (!turns.isEmpty()) {
      ConversationTurn last = turns.get(turns.size() - 1);
      if (!last.usage().estimated()) {
        return last.contextTokens();
      }
    }
    return estimateTokens();
  }

  /** An estimate of the conversation's size in tokens, from its text. */
  public long estimateTokens() {
    long chars = systemPrompt.length() + (summary == null ? 0 : summary.length());
    long messages = 0;
    for (ConversationTurn turn : turns) {
      for (ChatMessage message : turn.messages()) {
        messages++;
        chars += message.text().length();
        if (message instanceof ChatMessage.Assistant a) {
          for (ChatMessage.ToolUse use : a.toolUses()) {
            chars += use.name().length() + use.inputJson().length();
          }
        }
      }
    }
    return TokenEstimator.ofMessages(chars, messages);
  }
}
