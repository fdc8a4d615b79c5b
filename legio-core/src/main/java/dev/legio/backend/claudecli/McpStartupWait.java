package dev.legio.backend.claudecli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CLI process's first turn waits until the CLI has connected to the session's MCP servers
 * (Legio's memory tools), so the model's first request carries their tools.
 *
 * <p>Why: in {@code -p} mode the CLI waits for its {@code --mcp-config} servers at most 5 s after
 * it starts and 2 s more at the first message (fixed in the CLI, 2.1.112; {@code MCP_TIMEOUT}, 30 s
 * by default, is how long the connection itself may take, and the connection goes on in the
 * background), then sends the turn to the model without those tools and says nothing. {@code legio
 * mcp} is a JVM that answered after 3 s on an idle 2-core machine and after over 7 s on a busy one:
 * the agent then answered its first message without its memory. Under {@code legio serve} the CLI
 * reaches the server's own endpoint over HTTP instead (no JVM to start), and the wait is short; it
 * is kept for stdio ({@code legio say}, {@code legio chat}) and for any slow server.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Before the user's message, Legio asks the CLI for its MCP servers' status (the control
 *       request {@code mcp_status} of stream-json input, what the Agent SDK's {@code
 *       mcpServerStatus()} sends), and asks again every {@link #POLL} while one is {@code pending};
 *       the message is written once none is.
 *   <li>A server that ended in another state than {@code connected} ({@code failed}, {@code
 *       needs-auth}) is logged as a warning with what the CLI said; the turn goes on without its
 *       tools.
 *   <li>A CLI that refuses the request (an {@code error} answer: it does not know it) is not waited
 *       for.
 *   <li>The wait is part of the turn and counts towards its time-out; it lasts {@link #LIMIT} at
 *       most (a warning, and the turn goes on), longer than the CLI's own default connection limit.
 *   <li>A process that ends during the wait fails the turn as one that ended before answering.
 *   <li>Other output lines during the wait are skipped; an answer that comes late is skipped by the
 *       turn's reader ({@link CliSession}).
 * </ul>
 */
final class McpStartupWait {
  private static final Logger log = LoggerFactory.getLogger(McpStartupWait.class);

  /** How often the status is asked again while a server is pending. */
  static final Duration POLL = Duration.ofMillis(100);

  /** The longest the wait lasts. */
  static final Duration LIMIT = Duration.ofSeconds(60);

  private static final String PENDING = "pending";
  private static final String CONNECTED = "connected";

  private final CliProcess process;
  private final String label;

  McpStartupWait(CliProcess process, String label) {
    this.process = process;
    this.label = label;
  }

  /**
   * Waits until none of the process's MCP servers is pending, {@link #LIMIT} has passed or the
   * turn's {@code turnDeadline} ({@link System#nanoTime}) has.
   *
   * @param ended the failure to throw when the process ends first, from its exit
   */
  void await(long turnDeadline, Function<String, RuntimeException> ended) {
    long started = System.nanoTime();
    long deadline = Math.min(turnDeadline, started + LIMIT.toNanos());
    int asked = 0;
    while (true) {
      String requestId = "legio-mcp-status-" + ++asked;
      process.writeLine(StreamJson.mcpStatusRequest(requestId));
      Optional<JsonNode> answer = answer(requestId, deadline, ended);
      if (answer.isEmpty()) {
        log.warn(
            "{}: the CLI's MCP servers were not ready after {} s; the turn goes on, perhaps"
                + " without their tools",
            label,
            Duration.ofNanos(System.nanoTime() - started).toSeconds());
        return;
      }
      JsonNode response = answer.get().path("response");
      if (!"success".equals(response.path("subtype").asText())) {
        log.debug(
            "{}: the CLI did not tell its MCP servers' status ({}); not waiting",
            label,
            response.path("error").asText(""));
        return;
      }
      JsonNode servers = response.path("response").path("mcpServers");
      List<String> pending = pending(servers);
      if (pending.isEmpty()) {
        warnNotConnected(servers);
        log.debug(
            "{}: MCP servers ready after {} ms",
            label,
            Duration.ofNanos(System.nanoTime() - started).toMillis());
        return;
      }
      if (!pause(deadline)) {
        log.warn(
            "{}: the CLI's MCP servers {} were still starting after {} s; the turn goes on without"
                + " their tools",
            label,
            pending,
            Duration.ofNanos(System.nanoTime() - started).toSeconds());
        return;
      }
    }
  }

  /** The answer to {@code requestId}, or empty when {@code deadline} passed first. */
  private Optional<JsonNode> answer(
      String requestId, long deadline, Function<String, RuntimeException> ended) {
    while (true) {
      Optional<CliProcess.Line> next;
      try {
        next = process.next(deadline);
      } catch (InterruptedException e) {
        throw TurnReader.interrupted(e);
      }
      if (next.isEmpty()) {
        return Optional.empty();
      }
      if (!(next.get() instanceof CliProcess.Line.Out out)) {
        throw ended.apply(process.describeExit());
      }
      Optional<JsonNode> line = StreamJson.parse(out.text(), label);
      if (line.isPresent()
          && "control_response".equals(line.get().path("type").asText())
          && requestId.equals(line.get().path("response").path("request_id").asText())) {
        return line;
      }
    }
  }

  /** Sleeps {@link #POLL}; false when that would pass {@code deadline}. */
  private static boolean pause(long deadline) {
    if (System.nanoTime() + POLL.toNanos() >= deadline) {
      return false;
    }
    try {
      Thread.sleep(POLL);
      return true;
    } catch (InterruptedException e) {
      throw TurnReader.interrupted(e);
    }
  }

  private static List<String> pending(JsonNode servers) {
    List<String> names = new ArrayList<>();
    for (JsonNode server : servers) {
      if (PENDING.equals(server.path("status").asText())) {
        names.add(server.path("name").asText());
      }
    }
    return names;
  }

  private void warnNotConnected(JsonNode servers) {
    for (JsonNode server : servers) {
      String status = server.path("status").asText();
      if (!CONNECTED.equals(status)) {
        log.warn(
            "{}: the CLI's MCP server {} is {}{}; the turn goes on without its tools",
            label,
            server.path("name").asText(),
            status,
            server.path("error").isTextual() ? " (" + server.path("error").asText() + ")" : "");
      }
    }
  }
}
