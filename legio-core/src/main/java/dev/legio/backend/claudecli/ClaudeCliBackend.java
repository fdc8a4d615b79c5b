package dev.legio.backend.claudecli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.Usage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives Claude through the Claude Code CLI ({@code claude}), in one of two {@link Mode}s:
 *
 * <ul>
 *   <li>{@link Mode#PERSISTENT} (what the Agent SDK does): one long-lived {@code claude -p
 *       --input-format stream-json --output-format stream-json --verbose} process per session; each
 *       turn is one {@code {"type":"user",...}} line on its stdin, answered on its stdout.
 *   <li>{@link Mode#PER_TURN}: one process per turn, {@code --session-id <uuid>} on the first turn
 *       and {@code --resume <uuid>} after.
 * </ul>
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Legio chooses the CLI's session id (a UUID) and passes it with {@code --session-id} or
 *       {@code --resume}, so {@link BackendSession#backendSessionId()} is known when the session
 *       opens and can be stored; after a Legio restart the same id resumes the conversation. The
 *       system prompt, model, permission settings and MCP configuration are passed on every start
 *       (the CLI keeps only the conversation).
 *   <li>A session opened with a resume id reports {@link BackendSession#resumed()} true. If the CLI
 *       then says {@code No conversation found with session ID}, or the conversation outgrew the
 *       context window, the turn throws {@link SessionLostException}: the caller starts a new
 *       session and bootstraps it from the log.
 *   <li>{@code Session ID ... is already in use} on a first turn (a conversation by that id exists)
 *       is retried once with {@code --resume}; a session is never driven from two processes.
 *   <li>A turn that takes longer than {@link Options#turnTimeout()} kills the process (and
 *       everything it started) and fails; so does a process that exits without answering. Other
 *       sessions are not affected. A persistent session starts a new process with {@code --resume}
 *       on its next turn.
 *   <li>Output lines that are not JSON are logged and skipped. Usage comes from the {@code result}
 *       line. The context use after a turn is what its last request to the model read and wrote
 *       (see {@link StreamJson#context}), against the window the CLI reports for the model, else
 *       the one {@link ContextWindows} knows (with {@link Options#contextWindows()} first).
 *   <li>No CLI process outlives Legio: closing a session stops its process; closing the back-end,
 *       or the JVM exiting, kills every process it started, with their descendants.
 * </ul>
 */
public final class ClaudeCliBackend implements ModelBackend {
  public static final String KIND = "claude-cli";
  private static final Logger log = LoggerFactory.getLogger(ClaudeCliBackend.class);

  /** Tools a chat channel's session may not use (role {@link SessionSpec#CHAT_ROLE}). */
  static final List<String> CHAT_DISALLOWED_TOOLS =
      List.of("Bash", "Edit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "Task");

  /** How the CLI is driven. */
  public enum Mode {
    PERSISTENT,
    PER_TURN
  }

  /**
   * How to run the CLI.
   *
   * @param executable the {@code claude} executable ({@link ClaudeCliBinary#locate})
   * @param mode persistent process per session, or one process per turn
   * @param permissionMode the CLI's {@code --permission-mode}, or empty to leave its default
   * @param allowedTools the CLI's {@code --allowedTools} (empty: none passed)
   * @param turnTimeout the longest a turn may take before the process is killed
   * @param workingDirectory where the CLI runs; its conversations are stored per directory, so this
   *     must stay the same for sessions to resume
   * @param environment variables added to Legio's own environment for the CLI
   * @param mcpConfig each session's {@code --mcp-config}
   * @param contextWindows {@code [backend.context_windows]}: the window of a model (name or prefix
   *     → tokens) for when the CLI does not report it
   */
  public record Options(
      Path executable,
      Mode mode,
      String permissionMode,
      List<String> allowedTools,
      Duration turnTimeout,
      Path workingDirectory,
      Map<String, String> environment,
      McpConfigSource mcpConfig,
      Map<String, Integer> contextWindows) {
    public Options {
      Objects.requireNonNull(executable, "executable");
      Objects.requireNonNull(mode, "mode");
      permissionMode = permissionMode == null ? "" : permissionMode;
      allowedTools = List.copyOf(allowedTools);
      Objects.requireNonNull(turnTimeout, "turnTimeout");
      Objects.requireNonNull(workingDirectory, "workingDirectory");
      environment = Map.copyOf(environment);
      mcpConfig = mcpConfig == null ? McpConfigSource.none() : mcpConfig;
      contextWindows = contextWindows == null ? Map.of() : Map.copyOf(contextWindows);
    }

    /** Options without context window overrides. */
    public Options(
        Path executable,
        Mode mode,
        String permissionMode,
        List<String> allowedTools,
        Duration turnTimeout,
        Path workingDirectory,
        Map<String, String> environment,
        McpConfigSource mcpConfig) {
      this(
          executable,
          mode,
          permissionMode,
          allowedTools,
          turnTimeout,
          workingDirectory,
          environment,
          mcpConfig,
          Map.of());
    }

    public Options withContextWindows(Map<String, Integer> windows) {
      return new Options(
          executable,
          mode,
          permissionMode,
          allowedTools,
          turnTimeout,
          workingDirectory,
          environment,
          mcpConfig,
          windows);
    }

    public Options withMode(Mode newMode) {
      return new Options(
          executable,
          newMode,
          permissionMode,
          allowedTools,
          turnTimeout,
          workingDirectory,
          environment,
          mcpConfig,
          contextWindows);
    }

    public Options withTurnTimeout(Duration timeout) {
      return new Options(
          executable,
          mode,
          permissionMode,
          allowedTools,
          timeout,
          workingDirectory,
          environment,
          mcpConfig,
          contextWindows);
    }
  }

  private final Options options;
  private final ContextWindows windows;
  private final ProcessRegistry processes = new ProcessRegistry();

  public ClaudeCliBackend(Options options) {
    this.options = Objects.requireNonNull(options, "options");
    this.windows = ContextWindows.hosted(options.contextWindows());
  }

  public Options options() {
    return options;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String displayName() {
    return "Claude Code CLI";
  }

  @Override
  public boolean canResume() {
    return true;
  }

  @Override
  public BackendSession open(SessionSpec spec) {
    boolean resuming = spec.resumeId() != null;
    String id = resuming ? spec.resumeId() : UUID.randomUUID().toString();
    return new CliSession(spec, id, resuming);
  }

  /** How many CLI processes are running now. */
  public int runningProcesses() {
    return processes.size();
  }

  /** The CLI processes running now (for tests and diagnostics). */
  List<ProcessHandle> processHandles() {
    return processes.handles();
  }

  @Override
  public void close() {
    processes.close();
  }

  /** The command line for one process of a session. */
  List<String> command(SessionSpec spec, String sessionId, boolean resume) {
    List<String> cmd = new ArrayList<>();
    cmd.add(options.executable().toString());
    cmd.addAll(
        List.of(
            "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"));
    cmd.add(resume ? "--resume" : "--session-id");
    cmd.add(sessionId);
    cmd.add("--system-prompt");
    cmd.add(spec.systemPrompt());
    if (spec.model() != null && !spec.model().isBlank()) {
      cmd.add("--model");
      cmd.add(spec.model());
    }
    boolean chat = SessionSpec.CHAT_ROLE.equals(spec.role());
    String permission = chat ? "default" : options.permissionMode();
    if (!permission.isBlank()) {
      cmd.add("--permission-mode");
      cmd.add(permission);
    }
    List<String> allowed = new ArrayList<>(options.allowedTools());
    allowed.addAll(options.mcpConfig().allowedTools(spec));
    if (!allowed.isEmpty()) {
      cmd.add("--allowedTools");
      cmd.add(String.join(",", allowed));
    }
    if (chat) {
      cmd.add("--disallowedTools");
      cmd.add(String.join(",", CHAT_DISALLOWED_TOOLS));
    }
    Optional<String> mcp = options.mcpConfig().forSession(spec);
    if (mcp.isPresent()) {
      cmd.add("--mcp-config");
      cmd.add(mcp.get());
    }
    return cmd;
  }

  /** One session: the CLI conversation {@code id}, driven in the configured mode. */
  private final class CliSession implements BackendSession {
    private final SessionSpec spec;
    private final String id;
    private final boolean resumed;
    private final String label;

    /** True once the CLI may hold the conversation (resumed, or a process was started for it). */
    private boolean known;

    /** The running process of a persistent session, or null. */
    private CliProcess process;

    private boolean closed;

    CliSession(SessionSpec spec, String id, boolean resumed) {
      this.spec = spec;
      this.id = id;
      this.resumed = resumed;
      this.known = resumed;
      this.label = spec.owner() + "/" + id.substring(0, 8);
    }

    @Override
    public String backendSessionId() {
      return id;
    }

    @Override
    public boolean resumed() {
      return resumed;
    }

    @Override
    public synchronized TurnResult send(String userMessage, Consumer<BackendEvent> events) {
      if (closed) {
        throw new IllegalStateException("session " + label + " is closed");
      }
      try {
        return attempt(userMessage, events);
      } catch (AlreadyInUse e) {
        if (e.resumedRun) {
          throw new SessionLostException(
              "the Claude Code CLI says session " + id + " is in use elsewhere: " + e.getMessage());
        }
        log.info("{}: the CLI already has session {}; resuming it instead", label, id);
        known = true;
        try {
          return attempt(userMessage, events);
        } catch (AlreadyInUse again) {
          throw new SessionLostException(
              "the Claude Code CLI says session "
                  + id
                  + " is in use elsewhere: "
                  + again.getMessage());
        }
      }
    }

    private TurnResult attempt(String userMessage, Consumer<BackendEvent> events) {
      long deadline = System.nanoTime() + options.turnTimeout().toNanos();
      boolean resume = known;
      CliProcess running;
      if (options.mode() == Mode.PERSISTENT) {
        if (process == null || !process.isAlive()) {
          stopProcess();
          process = start(resume);
        }
        running = process;
      } else {
        running = start(resume);
      }
      known = true;
      boolean finished = false;
      try {
        running.writeLine(StreamJson.userMessage(userMessage));
        if (options.mode() == Mode.PER_TURN) {
          running.closeInput();
        }
        TurnResult result = read(running, deadline, events, resume);
        finished = true;
        return result;
      } finally {
        if (options.mode() == Mode.PER_TURN) {
          if (finished) {
            running.stop(5_000);
          } else {
            running.kill();
          }
        } else if (!finished) {
          running.kill();
          process = null;
        }
      }
    }

    private CliProcess start(boolean resume) {
      List<String> cmd = command(spec, id, resume);
      log.debug(
          "{}: starting claude ({}, {})",
          label,
          resume ? "--resume" : "--session-id",
          options.mode());
      return CliProcess.start(
          cmd, options.workingDirectory(), options.environment(), processes, label);
    }

    /** Reads output lines until the turn's {@code result}. */
    private TurnResult read(
        CliProcess running, long deadline, Consumer<BackendEvent> events, boolean resumedRun) {
      StringBuilder lastText = new StringBuilder();
      StreamJson.Requests requests = new StreamJson.Requests();
      while (true) {
        Optional<CliProcess.Line> next = nextLine(running, deadline);
        if (next.get() instanceof CliProcess.Line.End) {
          String exit = running.describeExit();
          StreamJson.Failure failure = StreamJson.classify(exit, null);
          switch (failure) {
            case SESSION_IN_USE -> throw new AlreadyInUse(exit, resumedRun);
            case SESSION_NOT_FOUND, CONTEXT_OVERFLOW ->
                throw new SessionLostException(
                    "the Claude Code CLI lost session " + id + ": " + exit);
            default ->
                throw new BackendException(
                    "the Claude Code CLI ended before answering (" + exit + ")");
          }
        }
        String line = ((CliProcess.Line.Out) next.get()).text();
        Optional<JsonNode> parsed = StreamJson.parse(line, label);
        if (parsed.isEmpty()) {
          continue;
        }
        JsonNode node = parsed.get();
        switch (node.path("type").asText()) {
          case "system" -> {
            if ("init".equals(node.path("subtype").asText())) {
              String reported = node.path("session_id").asText("");
              if (!reported.equals(id)) {
                log.warn("{}: the CLI reports session id {} instead of {}", label, reported, id);
              }
            }
          }
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
          case "result" -> {
            return result(node, lastText.toString(), requests);
          }
          default -> {}
        }
      }
    }

    private TurnResult result(JsonNode node, String lastText, StreamJson.Requests requests) {
      boolean error =
          node.path("is_error").asBoolean(false)
              || !"success".equals(node.path("subtype").asText("success"));
      if (error) {
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
          answer, usage, StreamJson.context(node, requests, spec.model(), windows));
    }

    private void deliver(Consumer<BackendEvent> events, BackendEvent event) {
      try {
        events.accept(event);
      } catch (RuntimeException e) {
        log.warn("{}: an event listener failed", label, e);
      }
    }

    private void stopProcess() {
      if (process != null) {
        process.stop(2_000);
        process = null;
      }
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        stopProcess();
      }
    }
  }

  // ------------------------------------------------------------------ one question, no session

  /** True: a one-shot {@code claude -p} process answers one question. */
  @Override
  public boolean canComplete() {
    return true;
  }

  /**
   * Runs one {@code claude -p --output-format json} process with the question on its stdin, no
   * tools ({@code --tools ""}), no MCP servers ({@code --strict-mcp-config}) and no session kept on
   * disk ({@code --no-session-persistence}): nothing of it can be resumed. It is killed when it
   * takes longer than {@link Options#turnTimeout()}.
   *
   * @throws BackendException when the CLI failed, timed out or reported an error
   */
  @Override
  public String complete(String systemPrompt, String prompt, String model) {
    String label = "complete/" + UUID.randomUUID().toString().substring(0, 8);
    long deadline = System.nanoTime() + options.turnTimeout().toNanos();
    CliProcess running =
        CliProcess.start(
            completeCommand(systemPrompt, model),
            options.workingDirectory(),
            options.environment(),
            processes,
            label);
    boolean finished = false;
    try {
      running.writeLine(prompt);
      running.closeInput();
      while (true) {
        Optional<CliProcess.Line> next = nextLine(running, deadline);
        if (next.get() instanceof CliProcess.Line.End) {
          throw new BackendException(
              "the Claude Code CLI ended before answering (" + running.describeExit() + ")");
        }
        Optional<JsonNode> parsed =
            StreamJson.parse(((CliProcess.Line.Out) next.get()).text(), label);
        if (parsed.isEmpty() || !"result".equals(parsed.get().path("type").asText())) {
          continue;
        }
        JsonNode result = parsed.get();
        finished = true;
        if (result.path("is_error").asBoolean(false)
            || !"success".equals(result.path("subtype").asText("success"))) {
          throw new BackendException(
              "the Claude Code CLI reported an error: " + StreamJson.errorText(result));
        }
        String text = result.path("result").asText("");
        if (text.isBlank()) {
          throw new BackendException("the Claude Code CLI's answer had no text");
        }
        return text;
      }
    } finally {
      if (finished) {
        running.stop(5_000);
      } else {
        running.kill();
      }
    }
  }

  /** The command line of a {@link #complete} process. */
  List<String> completeCommand(String systemPrompt, String model) {
    List<String> cmd = new ArrayList<>();
    cmd.add(options.executable().toString());
    cmd.addAll(
        List.of(
            "-p",
            "--output-format",
            "json",
            "--no-session-persistence",
            "--tools",
            "",
            "--strict-mcp-config",
            "--system-prompt",
            systemPrompt));
    if (model != null && !model.isBlank()) {
      cmd.add("--model");
      cmd.add(model);
    }
    return cmd;
  }

  /** The CLI refused {@code --session-id} or {@code --resume}: the session is open elsewhere. */
  private static final class AlreadyInUse extends RuntimeException {
    final boolean resumedRun;

    AlreadyInUse(String message, boolean resumedRun) {
      super(message);
      this.resumedRun = resumedRun;
    }
  }

  /** The process's next line, or its end; an interrupt or the deadline passing fails the turn. */
  private Optional<CliProcess.Line> nextLine(CliProcess running, long deadline) {
    Optional<CliProcess.Line> next;
    try {
      next = running.next(deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackendException("interrupted while waiting for the Claude Code CLI", e);
    }
    if (next.isEmpty()) {
      throw new BackendException(
          "the Claude Code CLI did not answer within "
              + options.turnTimeout().toSeconds()
              + " s (turn_timeout_seconds); its process was stopped");
    }
    return next;
  }
}
