package dev.legio.longterm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.longterm.MemoryExtractor.Outcome;
import dev.legio.transcript.TranscriptEntry;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The gates a session passes before its facts are extracted, after one of its turns; each check
 * answers with the {@link Outcome} that stops the extraction, or empty when the gate is open:
 *
 * <ol>
 *   <li>tool calls: after the session's first extraction, at least {@code
 *       extraction_min_tool_calls} tool calls since the last one (counted in {@link
 *       ExtractionState} before the check, so a restart forgets none);
 *   <li>messages: the transcript has at least {@code extraction_min_messages} messages (user and
 *       assistant entries, plus the messages its summaries replaced);
 *   <li>no tool call pending: the transcript's last assistant entry has no {@code tool_use} without
 *       a {@code tool_result} after it (the conversation is mid-step).
 * </ol>
 *
 * (Whether the agent has a folder and its back-end can answer outside a session is checked first,
 * by {@link MemoryExtractor}.)
 */
final class ExtractionGates {
  private final int minMessages;
  private final int minToolCalls;

  /**
   * @param minMessages {@code extraction_min_messages}
   * @param minToolCalls {@code extraction_min_tool_calls}
   */
  ExtractionGates(int minMessages, int minToolCalls) {
    this.minMessages = minMessages;
    this.minToolCalls = minToolCalls;
  }

  /** The tool-calls gate, for the session's state after counting this turn's calls. */
  Optional<Outcome> toolCalls(ExtractionState.Session counted) {
    return counted.extractions() > 0 && counted.toolCallsSince() < minToolCalls
        ? Optional.of(Outcome.TOO_FEW_TOOL_CALLS)
        : Optional.empty();
  }

  /** The messages and pending-tool-call gates, on the session's transcript. */
  Optional<Outcome> transcript(List<TranscriptEntry> entries) {
    if (countMessages(entries) < minMessages) {
      return Optional.of(Outcome.TOO_FEW_MESSAGES);
    }
    if (toolCallPending(entries)) {
      return Optional.of(Outcome.TOOL_CALL_PENDING);
    }
    return Optional.empty();
  }

  /** User and assistant entries, plus the messages that summaries replaced. */
  static int countMessages(List<TranscriptEntry> entries) {
    int count = 0;
    for (TranscriptEntry e : entries) {
      if (e.isSummary()) {
        count += e.messagesCompacted();
      } else if (e.type().equals("user") || e.type().equals("assistant")) {
        count++;
      }
    }
    return count;
  }

  /** True when the last assistant entry called a tool whose result has not come back. */
  static boolean toolCallPending(List<TranscriptEntry> entries) {
    int last = -1;
    for (int i = entries.size() - 1; i >= 0; i--) {
      if (entries.get(i).type().equals("assistant")) {
        last = i;
        break;
      }
    }
    if (last < 0) {
      return false;
    }
    Set<String> open = new HashSet<>();
    for (JsonNode block : entries.get(last).message().path("content")) {
      if (block.path("type").asText().equals("tool_use")) {
        open.add(block.path("id").asText(""));
      }
    }
    for (int i = last + 1; i < entries.size() && !open.isEmpty(); i++) {
      if (!entries.get(i).type().equals("user")) {
        continue;
      }
      for (JsonNode block : entries.get(i).message().path("content")) {
        if (block.path("type").asText().equals("tool_result")) {
          open.remove(block.path("tool_use_id").asText(""));
        }
      }
    }
    return !open.isEmpty();
  }
}
