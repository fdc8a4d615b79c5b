package dev.legio.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.Usage;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * An entry to append to a transcript. The store adds what every line carries in Claude Code's
 * format ({@code sessionId}, {@code cwd}, {@code timestamp}, {@code version}, {@code userType},
 * {@code isSidechain}).
 */
public sealed interface NewEntry {

  /**
   * A message of the conversation, as Claude Code writes it.
   *
   * @param type {@code user}, {@code assistant} or {@code system}
   * @param parentUuid the message before it in the conversation, or null for the first
   * @param message the Messages API message ({@code role}, {@code content}, ...)
   */
  record Message(String type, UUID uuid, UUID parentUuid, JsonNode message) implements NewEntry {
    public Message {
      Objects.requireNonNull(uuid, "uuid");
      Objects.requireNonNull(message, "message");
      if (!type.equals("user") && !type.equals("assistant") && !type.equals("system")) {
        throw new IllegalArgumentException(
            "a message entry's type is user, assistant or system; got '" + type + "'");
      }
    }
  }

  /** Legio's soft delete: loading leaves out the entry {@code deletedUuid}, in any part. */
  record Tombstone(UUID uuid, UUID deletedUuid) implements NewEntry {
    public Tombstone {
      Objects.requireNonNull(uuid, "uuid");
      Objects.requireNonNull(deletedUuid, "deletedUuid");
    }
  }

  /**
   * Legio's summary of older messages (written by compaction), loaded with the messages.
   *
   * @param messagesCompacted how many messages it replaces
   */
  record Summary(UUID uuid, UUID parentUuid, String summary, int messagesCompacted)
      implements NewEntry {
    public Summary {
      Objects.requireNonNull(uuid, "uuid");
      Objects.requireNonNull(summary, "summary");
      if (messagesCompacted < 0) {
        throw new IllegalArgumentException("messagesCompacted must not be negative");
      }
    }
  }

  /**
   * Claude Code's {@code agent-name} entry: whose session this is. Legio writes the owner (an agent
   * or a channel) first in every transcript it starts, with the session's creation as the line's
   * {@code timestamp}: where the session's place in a listing is ({@link TranscriptStartTime}).
   *
   * @param sessionCreated when the session was created (its record's {@code createdAt}), written to
   *     the microsecond; null: the line carries no time
   */
  record AgentName(String agentName, Instant sessionCreated) implements NewEntry {
    public AgentName {
      Objects.requireNonNull(agentName, "agentName");
    }

    /** An {@code agent-name} line without a time. */
    public AgentName(String agentName) {
      this(agentName, null);
    }
  }

  /** A user message with plain text content. */
  static Message user(UUID parentUuid, String text) {
    ObjectNode message = JsonNodeFactory.instance.objectNode();
    message.put("role", "user").put("content", text);
    return new Message("user", UUID.randomUUID(), parentUuid, message);
  }

  /** An assistant message with one text block, as the Messages API returns it. */
  static Message assistant(UUID parentUuid, String text, String model) {
    return assistant(parentUuid, text, model, null);
  }

  /**
   * An assistant message with one text block and, unless {@code usage} is null, the tokens it cost
   * in {@code message.usage} as Claude Code writes them: {@code input_tokens} (uncached input
   * only), {@code cache_creation_input_tokens}, {@code cache_read_input_tokens}, {@code
   * output_tokens}.
   */
  static Message assistant(UUID parentUuid, String text, String model, Usage usage) {
    ObjectNode message = JsonNodeFactory.instance.objectNode();
    message.put("role", "assistant");
    if (model != null) {
      message.put("model", model);
    }
    message.putArray("content").addObject().put("type", "text").put("text", text);
    if (usage != null) {
      // Legio's input counts cache reads and writes too; the API (and Claude Code) report them
      // apart from the uncached input.
      long uncached =
          Math.max(0, usage.inputTokens() - usage.cacheReadTokens() - usage.cacheCreationTokens());
      message
          .putObject("usage")
          .put("input_tokens", uncached)
          .put("cache_creation_input_tokens", usage.cacheCreationTokens())
          .put("cache_read_input_tokens", usage.cacheReadTokens())
          .put("output_tokens", usage.outputTokens());
    }
    return new Message("assistant", UUID.randomUUID(), parentUuid, message);
  }

  static Tombstone tombstone(UUID deletedUuid) {
    return new Tombstone(UUID.randomUUID(), deletedUuid);
  }

  static Summary summary(UUID parentUuid, String summary, int messagesCompacted) {
    return new Summary(UUID.randomUUID(), parentUuid, summary, messagesCompacted);
  }

  static AgentName agentName(String name) {
    return new AgentName(name);
  }

  static AgentName agentName(String name, Instant sessionCreated) {
    return new AgentName(name, sessionCreated);
  }
}
