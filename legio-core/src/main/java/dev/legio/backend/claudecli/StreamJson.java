package dev.legio.backend.claudecli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CLI's {@code stream-json} protocol: the user message Legio writes, and what its output lines
 * mean. Output is NDJSON: {@code system} (subtype {@code init} carries {@code session_id}), {@code
 * assistant} (a message with {@code text}, {@code thinking} and {@code tool_use} blocks), {@code
 * user} (tool results), and {@code result} (the answer, {@code usage}, {@code total_cost_usd},
 * {@code subtype}, {@code is_error}).
 */
final class StreamJson {
  private static final Logger log = LoggerFactory.getLogger(StreamJson.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int PREVIEW_CHARS = 80;

  private static final Pattern MEMORY_TOOL =
      Pattern.compile(
          "(list|read|publish|revoke|write)_(edicta|edictum|acta|actum|commentarii|commentarium)");

  private StreamJson() {}

  /** The stdin line for one user turn. */
  static String userMessage(String text) {
    ObjectNode line = JSON.createObjectNode().put("type", "user");
    line.putObject("message").put("role", "user").put("content", text);
    return line.toString();
  }

  /**
   * The stdin line asking the CLI for its MCP servers' status; the CLI answers with a {@code
   * control_response} line carrying {@code requestId} ({@link McpStartupWait}).
   */
  static String mcpStatusRequest(String requestId) {
    ObjectNode line =
        JSON.createObjectNode().put("type", "control_request").put("request_id", requestId);
    line.putObject("request").put("subtype", "mcp_status");
    return line.toString();
  }

  /** A line of output as JSON; empty (and logged) when it is not a JSON object. */
  static Optional<JsonNode> parse(String line, String label) {
    if (line.isBlank()) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(line);
      if (node != null && node.isObject()) {
        return Optional.of(node);
      }
    } catch (JsonProcessingException e) {
      // fall through
    }
    log.warn("{}: skipped a line of CLI output that is not JSON: {}", label, preview(line, 200));
    return Optional.empty();
  }

  /** The events one {@code assistant} line stands for: status lines, text and tool calls. */
  static List<BackendEvent> events(JsonNode assistant) {
    List<BackendEvent> out = new ArrayList<>();
    for (JsonNode block : assistant.path("message").path("content")) {
      switch (block.path("type").asText()) {
        case "thinking", "redacted_thinking" -> out.add(new BackendEvent.Status("⏳ Thinking..."));
        case "text" -> {
          String text = block.path("text").asText("");
          if (!text.isBlank()) {
            out.add(new BackendEvent.Status("⏳ " + preview(text, PREVIEW_CHARS)));
            out.add(new BackendEvent.Text(text));
          }
        }
        case "tool_use" -> {
          String name = block.path("name").asText("");
          JsonNode input = block.path("input");
          out.add(new BackendEvent.Status(toolStatus(name, input)));
          out.add(new BackendEvent.ToolCall(name, input.isMissingNode() ? "{}" : input.toString()));
        }
        default -> {}
      }
    }
    return out;
  }

  /**
   * The status line for a tool call: memory tools read as {@code ⏳ Reading edicta...} (or writing),
   * a dispatch as {@code ⏳ Dispatching to vorenus...}, others by name.
   */
  static String toolStatus(String name, JsonNode input) {
    String bare = name.startsWith("mcp__") ? name.substring(name.lastIndexOf("__") + 2) : name;
    Matcher memory = MEMORY_TOOL.matcher(bare);
    if (memory.matches()) {
      String verb = memory.group(1);
      String layer =
          switch (memory.group(2)) {
            case "edicta", "edictum" -> "edicta";
            case "acta", "actum" -> "acta";
            default -> "commentarii";
          };
      boolean reading = verb.equals("list") || verb.equals("read");
      return "⏳ " + (reading ? "Reading " : "Writing ") + layer + "...";
    }
    if (bare.toLowerCase(Locale.ROOT).contains("dispatch")) {
      for (String key : List.of("centurio", "agent", "name", "to")) {
        JsonNode target = input.path(key);
        if (target.isTextual() && !target.asText().isBlank()) {
          return "⏳ Dispatching to " + target.asText() + "...";
        }
      }
      return "⏳ Dispatching...";
    }
    return "⏳ Using " + bare + "...";
  }

  /**
   * The usage a {@code result} line reports. Input counts every token the model read: uncached
   * input plus cache reads plus cache writes (the API reports them apart). The line's {@code
   * total_cost_usd} (the CLI's own figure for its process so far; {@code CliSession} makes it the
   * turn's) is kept as the reported cost when it is a number.
   */
  static Usage usage(JsonNode result) {
    JsonNode u = result.path("usage");
    long input = u.path("input_tokens").asLong(0);
    long cacheRead = u.path("cache_read_input_tokens").asLong(0);
    long cacheCreation = u.path("cache_creation_input_tokens").asLong(0);
    JsonNode cost = result.path("total_cost_usd");
    return new Usage(
        input + cacheRead + cacheCreation,
        u.path("output_tokens").asLong(0),
        cacheRead,
        cacheCreation,
        false,
        cost.isNumber() ? cost.asDouble() : null);
  }

  /**
   * The requests to the model one turn made, as its {@code assistant} lines show them: each line
   * carries its request's {@code message.id}, {@code message.model} and {@code message.usage}
   * (input and cache figures as the API reported them at the start of the answer; the CLI streams
   * {@code output_tokens} there before the answer is complete, so it is not final).
   */
  static final class Requests {
    private String lastId;
    private int count;
    private JsonNode lastUsage;
    private String lastModel;

    void add(JsonNode assistant) {
      JsonNode message = assistant.path("message");
      String id = message.path("id").asText("");
      if (count == 0 || !id.equals(lastId)) {
        count++;
        lastId = id;
      }
      JsonNode usage = message.path("usage");
      if (usage.isObject()) {
        lastUsage = usage;
      }
      if (message.path("model").isTextual()) {
        lastModel = message.path("model").asText();
      }
    }
  }

  /**
   * How full the conversation is after the turn of {@code result}: what the turn's last request to
   * the model read (uncached input plus cache reads plus cache writes) and wrote (its output).
   *
   * <p>The result's {@code usage} adds up every request of the turn (a turn with tool calls makes
   * several), so the read figures come from the last request's {@code assistant} line. Its output
   * is the result's when the turn made one request; with several, the result's output counts the
   * earlier answers too (which the last request already read), so the last line's streamed figure
   * is taken instead.
   *
   * <p>The window is the {@code contextWindow} the CLI reports in {@code modelUsage} for the model
   * that answered (CLI 2.1 does), else {@code windows}' figure for that model ({@code model} when
   * the lines name none, {@code claude} when neither does).
   */
  static ContextUse context(
      JsonNode result, Requests requests, String model, ContextWindows windows) {
    JsonNode total = result.path("usage");
    JsonNode last = requests.lastUsage != null ? requests.lastUsage : total;
    long read =
        last.path("input_tokens").asLong(0)
            + last.path("cache_read_input_tokens").asLong(0)
            + last.path("cache_creation_input_tokens").asLong(0);
    long written =
        requests.count <= 1 || requests.lastUsage == null
            ? total.path("output_tokens").asLong(0)
            : last.path("output_tokens").asLong(0);
    String answered =
        requests.lastModel != null
            ? requests.lastModel
            : model != null && !model.isBlank() ? model : "claude";
    return ContextUse.of(Math.max(0, read + written), window(result, answered, windows));
  }

  private static long window(JsonNode result, String model, ContextWindows windows) {
    JsonNode byModel = result.path("modelUsage");
    long reported = byModel.path(model).path("contextWindow").asLong(0);
    if (reported <= 0 && byModel.size() == 1) {
      reported = byModel.elements().next().path("contextWindow").asLong(0);
    }
    return reported > 0 ? reported : windows.of(model);
  }

  /** What a failed result or a dying process said, as one line. */
  static String errorText(JsonNode result) {
    List<String> parts = new ArrayList<>();
    if (result.path("result").isTextual()) {
      parts.add(result.path("result").asText());
    }
    for (JsonNode e : result.path("errors")) {
      parts.add(e.asText());
    }
    if (parts.isEmpty()) {
      parts.add(result.path("subtype").asText("error"));
    }
    return String.join("; ", parts);
  }

  /** How the CLI failed, from what it said. */
  enum Failure {
    /** {@code --resume} of a conversation the CLI does not have. */
    SESSION_NOT_FOUND,
    /** {@code --session-id} of a conversation that exists or is open elsewhere. */
    SESSION_IN_USE,
    /** The conversation no longer fits in the model's context window. */
    CONTEXT_OVERFLOW,
    OTHER
  }

  static Failure classify(String text, JsonNode result) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.contains("no conversation found with session id")) {
      return Failure.SESSION_NOT_FOUND;
    }
    if (lower.contains("is already in use")) {
      return Failure.SESSION_IN_USE;
    }
    String terminal = result == null ? "" : result.path("terminal_reason").asText("");
    if (terminal.equals("prompt_too_long")
        || lower.contains("prompt is too long")
        || lower.contains("context window")
        || lower.contains("context length")) {
      return Failure.CONTEXT_OVERFLOW;
    }
    return Failure.OTHER;
  }

  /** The first {@code max} characters of {@code text} on one line, with … when cut. */
  static String preview(String text, int max) {
    String flat = text.strip().replaceAll("\\s+", " ");
    if (flat.length() <= max) {
      return flat;
    }
    int end = max;
    if (Character.isHighSurrogate(flat.charAt(end - 1))) {
      end--;
    }
    return flat.substring(0, end) + "…";
  }
}
