package dev.legio.backend.http;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.Usage;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rounds of one turn: the model is asked, the tools it calls run, their results go back, until
 * it answers without calling any.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>Each request carries the conversation, the turn's messages so far and the session's tools;
 *       the answer's text streams out as {@link BackendEvent.Text}.
 *   <li>Each tool call is reported ({@link BackendEvent.ToolCall}) and run in the order the model
 *       gave; a tool that throws or returns nothing gives the model an error result saying so.
 *   <li>A model still calling tools after {@code maxToolRounds} rounds fails the turn: nothing of
 *       it is kept.
 *   <li>The turn's usage is the sum over its requests; its text is the non-blank texts of its
 *       answers, each stripped, joined by a blank line.
 * </ol>
 */
final class ToolLoop {
  private static final Logger log = LoggerFactory.getLogger(ToolLoop.class);

  private final String displayName;
  private final int maxToolRounds;

  ToolLoop(String displayName, int maxToolRounds) {
    this.displayName = displayName;
    this.maxToolRounds = maxToolRounds;
  }

  /**
   * A finished turn.
   *
   * @param messages the turn's messages: the user's, then each answer and tool result
   * @param texts the non-blank texts of the answers, stripped
   * @param usage the usage summed over the turn's requests
   * @param last the model's final answer
   */
  record Outcome(List<ChatMessage> messages, List<String> texts, Usage usage, ChatReply last) {
    Outcome {
      messages = List.copyOf(messages);
      texts = List.copyOf(texts);
    }

    /** What the turn answered. */
    String text() {
      return String.join("\n\n", texts);
    }

    /**
     * The conversation's size after the turn: what the last request read and wrote, or when the
     * server reported no usage, {@code before}'s estimate plus the turn's.
     */
    long contextTokens(Conversation before) {
      if (!last.usage().estimated()) {
        return last.contextTokens();
      }
      long chars = 0;
      for (ChatMessage m : messages) {
        chars += m.text().length();
      }
      return before.estimateTokens() + TokenEstimator.ofMessages(chars, messages.size());
    }
  }

  /**
   * Runs the turn that {@code userMessage} starts.
   *
   * @param request the request carrying the conversation, then the given new messages
   * @param label who the turn is for, in the logs
   * @throws BackendException when a request failed or the model called tools too many times
   */
  Outcome run(
      String userMessage,
      Function<List<ChatMessage>, ChatRequest> request,
      RetryingChatClient client,
      Toolset tools,
      Consumer<BackendEvent> events,
      String label) {
    List<ChatMessage> turn = new ArrayList<>();
    turn.add(new ChatMessage.User(userMessage));
    List<String> texts = new ArrayList<>();
    Usage total = new Usage(0, 0, 0, 0, false);
    int round = 0;
    while (true) {
      ChatReply reply =
          client.send(
              request.apply(turn), piece -> events.accept(new BackendEvent.Text(piece)), events);
      total = add(total, reply.usage());
      turn.add(new ChatMessage.Assistant(reply.text(), reply.toolUses()));
      if (!reply.text().isBlank()) {
        texts.add(reply.text().strip());
      }
      if (reply.toolUses().isEmpty()) {
        return new Outcome(turn, texts, total, reply);
      }
      if (++round > maxToolRounds) {
        throw new BackendException(
            displayName
                + ": the model was still calling tools after "
                + maxToolRounds
                + " rounds; the turn was stopped and not stored. Ask again, more narrowly.");
      }
      for (ChatMessage.ToolUse use : reply.toolUses()) {
        events.accept(new BackendEvent.ToolCall(use.name(), use.inputJson()));
        ToolResult result = runTool(tools, use, label);
        turn.add(new ChatMessage.ToolResult(use.id(), use.name(), result.text(), result.error()));
      }
    }
  }

  /** Runs one call; a toolset that breaks its promise not to throw still gives an error result. */
  private static ToolResult runTool(Toolset tools, ChatMessage.ToolUse use, String label) {
    try {
      ToolResult result = tools.call(use.name(), use.inputJson());
      return result == null ? ToolResult.error("the tool returned nothing") : result;
    } catch (RuntimeException e) {
      log.warn("{}: tool {} failed", label, use.name(), e);
      return ToolResult.error("the tool failed: " + e.getMessage());
    }
  }

  private static Usage add(Usage a, Usage b) {
    return new Usage(
        a.inputTokens() + b.inputTokens(),
        a.outputTokens() + b.outputTokens(),
        a.cacheReadTokens() + b.cacheReadTokens(),
        a.cacheCreationTokens() + b.cacheCreationTokens(),
        a.estimated() || b.estimated());
  }
}
