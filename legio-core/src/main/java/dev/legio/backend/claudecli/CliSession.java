package dev.legio.backend.claudecli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.TurnTimeoutException;
import dev.legio.backend.Usage;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session of the Claude Code CLI: the CLI conversation {@link #backendSessionId()}, driven by
 * processes as its mode says ({@link PersistentCliSession}, {@link PerTurnCliSession}).
 *
 * <p>Rules of a turn:
 *
 * <ul>
 *   <li>The session's MCP servers ({@code --mcp-config}) are asked of {@link McpConfigSource} once,
 *       when it opens, and then the variables they need in the CLI's environment (a server's
 *       token); every process of the session starts with that one value and those variables, added
 *       to the back-end's environment (never on its command line).
 *   <li>A process's first turn, when the session has MCP servers, first waits for the CLI to
 *       connect to them ({@link McpStartupWait}).
 *   <li>Every process writes a turn to its transcript before it reports the turn's result ({@link
 *       EagerTranscript}).
 *   <li>The first process of a session the CLI does not have yet starts with {@code --session-id},
 *       every later one (and every one of a resumed session) with {@code --resume}.
 *   <li>{@code Session ID ... is already in use} on a first turn (a conversation by that id exists)
 *       is retried once with {@code --resume}; in use on a resumed run, the session is lost ({@link
 *       SessionLostException}): it is never driven from two processes.
 *   <li>One time-out per turn: {@code turn_timeout_seconds} counts from the turn's {@link
 *       TurnStart} (when the caller first sent it; {@link #send(String, Consumer)}: now), and
 *       bounds every try of it: the {@code --resume} retry gets what the first try left, and a turn
 *       the engine sends again to a new session after this one was lost gets what is left of the
 *       same start. A try with nothing left fails at once with the time-out's {@link
 *       TurnTimeoutException}, starting no process.
 *   <li>A process that exits without answering fails the turn; when the CLI says it has no such
 *       conversation, or the conversation outgrew the context window, the session is lost.
 *   <li>An error result fails the turn with what the CLI said; no conversation or a context
 *       overflow lose the session.
 *   <li>The answer is the result's text, else the last text the model wrote; usage and the context
 *       use come from the result ({@link StreamJson#usage}, {@link StreamJson#context}).
 *   <li>Events of the turn (text, tool calls as status lines) go to the caller as they come; a
 *       listener that throws is logged and does not fail the turn.
 * </ul>
 */
abstract sealed class CliSession implements BackendSession
    permits PersistentCliSession, PerTurnCliSession {
  private static final Logger log = LoggerFactory.getLogger(CliSession.class);

  /** What every session of one back-end shares. */
  record Parts(
      ClaudeCliBackend.Options options,
      ClaudeCliArgs args,
      ContextWindows windows,
      ProcessRegistry processes,
      SystemPromptFiles prompts) {}

  final Parts parts;
  final SessionSpec spec;
  final String id;
  final String label;
  private final boolean resumed;

  /** True once the CLI may hold the conversation (resumed, or a process was started for it). */
  private boolean known;

  private boolean closed;

  /**
   * The session's {@code --mcp-config}, or empty for none: asked of {@link McpConfigSource} once,
   * when the session opens, and the same for each of its processes.
   */
  private final Optional<String> mcpConfig;

  /**
   * The environment of the session's processes: the back-end's, with the variables {@link
   * McpConfigSource#environment} asked for when the session opened.
   */
  private final Map<String, String> environment;

  /** The last process whose MCP servers were waited for ({@link McpStartupWait}). */
  private CliProcess mcpAwaited;

  /** The process whose {@code total_cost_usd} {@link #processCostSoFar} is. */
  private CliProcess costProcess;

  /** The last {@code total_cost_usd} of {@link #costProcess}: its cost over all its turns. */
  private BigDecimal processCostSoFar = BigDecimal.ZERO;

  CliSession(Parts parts, SessionSpec spec, String id, boolean resumed) {
    this.parts = parts;
    this.spec = spec;
    this.id = id;
    this.resumed = resumed;
    this.known = resumed;
    this.label = spec.owner() + "/" + id.substring(0, 8);
    this.mcpConfig = parts.options().mcpConfig().forSession(spec);
    this.environment = withMcpVariables(parts.options(), spec);
  }

  /** The process to send the turn to, started with {@code --resume} when {@code resume}. */
  abstract CliProcess processFor(boolean resume);

  /** Called once the user's message is written: a per-turn process is told no more input comes. */
  abstract void written(CliProcess running);

  /** Called when the turn is over, {@code finished} or not: the mode keeps or stops the process. */
  abstract void release(CliProcess running, boolean finished);

  /** Called once when the session closes. */
  abstract void stop();

  @Override
  public String backendSessionId() {
    return id;
  }

  @Override
  public boolean resumed() {
    return resumed;
  }

  @Override
  public TurnResult send(String userMessage, Consumer<BackendEvent> events) {
    return send(userMessage, events, TurnStart.now());
  }

  @Override
  public synchronized TurnResult send(
      String userMessage, Consumer<BackendEvent> events, TurnStart start) {
    if (closed) {
      throw new IllegalStateException("session " + label + " is closed");
    }
    long deadline = start.deadline(parts.options().turnTimeout());
    try {
      return attempt(userMessage, events, deadline);
    } catch (AlreadyInUse e) {
      if (e.resumedRun) {
        throw new SessionLostException(
            "the Claude Code CLI says session " + id + " is in use elsewhere: " + e.getMessage());
      }
      log.info("{}: the CLI already has session {}; resuming it instead", label, id);
      known = true;
      try {
        return attempt(userMessage, events, deadline);
      } catch (AlreadyInUse again) {
        throw new SessionLostException(
            "the Claude Code CLI says session "
                + id
                + " is in use elsewhere: "
                + again.getMessage());
      }
    }
  }

  /** One process's try at the turn, which must be over by the turn's {@code deadline}. */
  private TurnResult attempt(String userMessage, Consumer<BackendEvent> events, long deadline) {
    if (deadline - System.nanoTime() <= 0) {
      throw new TurnTimeoutException(
          "the Claude Code CLI did not answer within "
              + parts.options().turnTimeout().toSeconds()
              + " s (turn_timeout_seconds): the turn's time ran out before it could be tried again"
              + " in a new process, so none was started; send the message again, or raise"
              + " turn_timeout_seconds in legio.toml");
    }
    boolean resume = known;
    CliProcess running = processFor(resume);
    TurnReader reader = new TurnReader(running, deadline, parts.options().turnTimeout(), label);
    known = true;
    boolean finished = false;
    try {
      if (mcpConfig.isPresent() && running != mcpAwaited) {
        mcpAwaited = running;
        new McpStartupWait(running, label).await(deadline, exit -> ended(exit, resume));
      }
      running.writeLine(StreamJson.userMessage(userMessage));
      written(running);
      TurnResult result = turnCost(running, read(reader, events, resume));
      finished = true;
      return result;
    } finally {
      release(running, finished);
    }
  }

  /**
   * The result with the turn's own cost. The CLI's {@code total_cost_usd} is its process's cost so
   * far: a persistent process answers many turns, so a turn's cost is what the figure grew by since
   * the process's previous turn (a new process starts from zero).
   */
  private TurnResult turnCost(CliProcess running, TurnResult result) {
    Double total = result.usage().reportedCostUsd();
    if (total == null) {
      return result;
    }
    if (running != costProcess) {
      costProcess = running;
      processCostSoFar = BigDecimal.ZERO;
    }
    BigDecimal now = BigDecimal.valueOf(total);
    BigDecimal turn = now.subtract(processCostSoFar).max(BigDecimal.ZERO);
    processCostSoFar = now;
    return new TurnResult(
        result.text(), result.usage().withReportedCostUsd(turn.doubleValue()), result.context());
  }

  /** Starts a process of this session. */
  final CliProcess start(boolean resume) {
    log.debug(
        "{}: starting claude ({}, {})",
        label,
        resume ? "--resume" : "--session-id",
        parts.options().mode());
    SystemPromptFiles.Written prompt = parts.prompts().write(spec.systemPrompt());
    CliProcess started;
    try {
      started =
          CliProcess.start(
              parts.args().session(spec, id, resume, prompt.path(), mcpConfig),
              parts.options().workingDirectory(),
              EagerTranscript.environment(environment),
              parts.options().withheld(),
              parts.processes(),
              label);
    } catch (RuntimeException e) {
      prompt.delete();
      throw e;
    }
    started.whenEnded(prompt::delete);
    return started;
  }

  /** The back-end's environment with the MCP servers' variables, asked after their config. */
  private static Map<String, String> withMcpVariables(
      ClaudeCliBackend.Options options, SessionSpec spec) {
    Map<String, String> variables = options.mcpConfig().environment(spec);
    if (variables.isEmpty()) {
      return options.environment();
    }
    Map<String, String> merged = new HashMap<>(options.environment());
    merged.putAll(variables);
    return Map.copyOf(merged);
  }

  /** Reads output lines until the turn's {@code result}. */
  private TurnResult read(TurnReader reader, Consumer<BackendEvent> events, boolean resumedRun) {
    StringBuilder lastText = new StringBuilder();
    StreamJson.Requests requests = new StreamJson.Requests();
    JsonNode result =
        reader.result(
            node -> {
              switch (node.path("type").asText()) {
                case "system" -> checkInit(node);
                case "assistant" -> {
                  requests.add(node);
                  for (BackendEvent event : StreamJson.events(node)) {
                    if (event instanceof BackendEvent.Text text) {
                      lastText.setLength(0);
                      lastText.append(text.text());
                    }
                    deliver(events, event);
                  }
                }
                default -> {}
              }
            },
            exit -> ended(exit, resumedRun));
    return result(result, lastText.toString(), requests);
  }

  private void checkInit(JsonNode node) {
    if ("init".equals(node.path("subtype").asText())) {
      String reported = node.path("session_id").asText("");
      if (!reported.equals(id)) {
        log.warn("{}: the CLI reports session id {} instead of {}", label, reported, id);
      }
    }
  }

  /** The failure of a process that ended before answering, from its exit. */
  private RuntimeException ended(String exit, boolean resumedRun) {
    return switch (StreamJson.classify(exit, null)) {
      case SESSION_IN_USE -> new AlreadyInUse(exit, resumedRun);
      case SESSION_NOT_FOUND, CONTEXT_OVERFLOW ->
          new SessionLostException("the Claude Code CLI lost session " + id + ": " + exit);
      default -> new BackendException("the Claude Code CLI ended before answering (" + exit + ")");
    };
  }

  private TurnResult result(JsonNode node, String lastText, StreamJson.Requests requests) {
    if (TurnReader.isError(node)) {
      String text = StreamJson.errorText(node);
      switch (StreamJson.classify(text, node)) {
        case SESSION_NOT_FOUND ->
            throw new SessionLostException(
                "the Claude Code CLI has no conversation " + id + " (" + text + ")");
        case CONTEXT_OVERFLOW ->
            throw new SessionLostException(
                "the conversation " + id + " no longer fits the context window (" + text + ")");
        default -> throw new BackendException("the Claude Code CLI reported an error: " + text);
      }
    }
    Usage usage = StreamJson.usage(node);
    if (log.isDebugEnabled()) {
      log.debug(
          "{}: turn done: {} input, {} output tokens, cost {} USD",
          label,
          usage.inputTokens(),
          usage.outputTokens(),
          node.path("total_cost_usd").asText("?"));
    }
    String answer = node.path("result").isTextual() ? node.path("result").asText() : lastText;
    return new TurnResult(
        answer, usage, StreamJson.context(node, requests, spec.model(), parts.windows()));
  }

  private void deliver(Consumer<BackendEvent> events, BackendEvent event) {
    try {
      events.accept(event);
    } catch (RuntimeException e) {
      log.warn("{}: an event listener failed", label, e);
    }
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      stop();
    }
  }

  /** The CLI refused {@code --session-id} or {@code --resume}: the session is open elsewhere. */
  private static final class AlreadyInUse extends RuntimeException {
    final boolean resumedRun;

    AlreadyInUse(String message, boolean resumedRun) {
      super(message);
      this.resumedRun = resumedRun;
    }
  }
}
