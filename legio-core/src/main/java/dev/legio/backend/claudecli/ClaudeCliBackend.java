package dev.legio.backend.claudecli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.SessionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Drives Claude through the Claude Code CLI ({@code claude}), in one of two {@link Mode}s, each a
 * session type: {@link PersistentCliSession} (one long-lived stream-json process per session, what
 * the Agent SDK does) and {@link PerTurnCliSession} (one process per turn).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Legio chooses the CLI's session id (a UUID) and passes it with {@code --session-id} or
 *       {@code --resume}, so {@link BackendSession#backendSessionId()} is known when the session
 *       opens and can be stored; after a Legio restart the same id resumes the conversation. The
 *       system prompt, model, permission settings and MCP configuration are passed on every start
 *       (the CLI keeps only the conversation): {@link ClaudeCliArgs}.
 *   <li>A session opened with a resume id reports {@link BackendSession#resumed()} true. A lost
 *       conversation, one in use elsewhere and a failed turn are handled as {@link CliSession}
 *       says: the caller starts a new session and bootstraps it from the log on {@link
 *       SessionLostException}.
 *   <li>A turn that takes longer than {@link Options#turnTimeout()} kills the process (and
 *       everything it started) and fails; so does a process that exits without answering ({@link
 *       TurnReader}). Other sessions are not affected.
 *   <li>The context use after a turn is what its last request to the model read and wrote (see
 *       {@link StreamJson#context}), against the window the CLI reports for the model, else the one
 *       {@link ContextWindows} knows (with {@link Options#contextWindows()} first).
 *   <li>No CLI process outlives Legio: closing a session stops its process; closing the back-end,
 *       or the JVM exiting, kills every process it started, with their descendants.
 * </ul>
 */
public final class ClaudeCliBackend implements ModelBackend {
  public static final String KIND = "claude-cli";

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
   * @param withheld variables of Legio's own environment the CLI does not get (the secrets of
   *     Legio's other parts: a chat platform's token, another back-end's API key), since an agent
   *     with shell tools could read them from its environment
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
      Map<String, Integer> contextWindows,
      Set<String> withheld) {
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
      withheld = withheld == null ? Set.of() : Set.copyOf(withheld);
    }

    /** Options that withhold nothing of Legio's environment. */
    public Options(
        Path executable,
        Mode mode,
        String permissionMode,
        List<String> allowedTools,
        Duration turnTimeout,
        Path workingDirectory,
        Map<String, String> environment,
        McpConfigSource mcpConfig,
        Map<String, Integer> contextWindows) {
      this(
          executable,
          mode,
          permissionMode,
          allowedTools,
          turnTimeout,
          workingDirectory,
          environment,
          mcpConfig,
          contextWindows,
          Set.of());
    }

    /** These options, the CLI not getting the variables {@code names} of Legio's environment. */
    public Options withholding(Set<String> names) {
      return new Options(
          executable,
          mode,
          permissionMode,
          allowedTools,
          turnTimeout,
          workingDirectory,
          environment,
          mcpConfig,
          contextWindows,
          names);
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
          windows,
          withheld);
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
          contextWindows,
          withheld);
    }
  }

  private final Options options;
  private final ProcessRegistry processes;
  private final SystemPromptFiles prompts;
  private final CliSession.Parts parts;

  /**
   * A back-end with the machine's {@link CliProcessLedger}: it first stops the CLI processes that a
   * killed Legio left running.
   */
  public ClaudeCliBackend(Options options) {
    this(options, CliProcessLedger.standard());
  }

  /**
   * At exit, the CLI processes of every back-end are killed only once {@code drained} is counted
   * down (or {@code atMost} has passed): a server that drains lets its CLI turns finish first.
   */
  public static void stopProcessesAtExitAfter(
      java.util.concurrent.CountDownLatch drained, Duration atMost) {
    ProcessRegistry.killAtExitAfter(drained, atMost);
  }

  ClaudeCliBackend(Options options, CliProcessLedger ledger) {
    this.options = Objects.requireNonNull(options, "options");
    ledger.stopOrphans();
    this.processes = new ProcessRegistry(ledger);
    this.prompts = SystemPromptFiles.besides(ledger);
    prompts.deleteOrphans();
    this.parts =
        new CliSession.Parts(
            options,
            new ClaudeCliArgs(options),
            ContextWindows.hosted(options.contextWindows()),
            processes,
            prompts);
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
    return switch (options.mode()) {
      case PERSISTENT -> new PersistentCliSession(parts, spec, id, resuming);
      case PER_TURN -> new PerTurnCliSession(parts, spec, id, resuming);
    };
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
    prompts.close();
  }

  /**
   * The command line for one process of a session; its system prompt file stays until the back-end
   * closes.
   */
  List<String> command(SessionSpec spec, String sessionId, boolean resume) {
    return parts
        .args()
        .session(
            spec,
            sessionId,
            resume,
            prompts.write(spec.systemPrompt()).path(),
            options.mcpConfig().forSession(spec));
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
   * takes longer than {@link Options#turnTimeout()}. The answer returns as soon as the CLI's result
   * is read, as a per-turn session's turn does: the process's exit clean-up runs in the background
   * ({@link CliProcess#stopInBackground}: killed if not gone 5 s later), and a process that did not
   * answer is killed before the call returns.
   *
   * @throws BackendException when the CLI failed, timed out or reported an error
   */
  @Override
  public String complete(String systemPrompt, String prompt, String model) {
    String label = "complete/" + UUID.randomUUID().toString().substring(0, 8);
    long deadline = TurnReader.deadline(options.turnTimeout());
    SystemPromptFiles.Written written = prompts.write(systemPrompt);
    CliProcess running;
    try {
      running =
          CliProcess.start(
              parts.args().complete(written.path(), model),
              options.workingDirectory(),
              options.environment(),
              options.withheld(),
              processes,
              label);
    } catch (RuntimeException e) {
      written.delete();
      throw e;
    }
    running.whenEnded(written::delete);
    boolean finished = false;
    try {
      running.writeLine(prompt);
      running.closeInput();
      JsonNode result =
          new TurnReader(running, deadline, options.turnTimeout(), label)
              .result(
                  line -> {},
                  exit ->
                      new BackendException(
                          "the Claude Code CLI ended before answering (" + exit + ")"));
      finished = true;
      if (TurnReader.isError(result)) {
        throw new BackendException(
            "the Claude Code CLI reported an error: " + StreamJson.errorText(result));
      }
      String text = result.path("result").asText("");
      if (text.isBlank()) {
        throw new BackendException("the Claude Code CLI's answer had no text");
      }
      return text;
    } finally {
      if (finished) {
        running.stopInBackground(5_000);
      } else {
        running.kill();
      }
    }
  }
}
