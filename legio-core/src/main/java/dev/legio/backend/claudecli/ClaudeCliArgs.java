package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The command lines Legio starts the Claude Code CLI with; pure: the same options and session give
 * the same argv.
 *
 * <p>A session's process ({@link #session}):
 *
 * <ul>
 *   <li>{@code -p --input-format stream-json --output-format stream-json --verbose}: one JSON line
 *       per user message in, one per event out.
 *   <li>{@code --session-id <id>} for a conversation the CLI does not have yet, {@code --resume
 *       <id>} for one it has; then {@code --system-prompt-file} (the system prompt is never on the
 *       command line, which every local user may read: {@link SystemPromptFiles}) and, when the
 *       agent names one, {@code --model}.
 *   <li>{@code --permission-mode}: the configured one; a chat channel's session ({@link
 *       SessionSpec#CHAT_ROLE}) always gets {@code default}. Blank: not passed.
 *   <li>{@code --allowedTools}: the configured tools, then those the MCP configuration allows for
 *       the session, comma-separated; not passed when there are none.
 *   <li>A chat channel's session gets {@code --disallowedTools} {@link #CHAT_DISALLOWED_TOOLS}:
 *       people in a chat cannot make it run commands, edit files or browse.
 *   <li>{@code --mcp-config} when the session has MCP servers: the value the caller built once for
 *       the session ({@link CliSession}), never asked of the {@link McpConfigSource} per process.
 * </ul>
 *
 * <p>One question ({@link #complete}): {@code -p --output-format json --no-session-persistence
 * --tools "" --strict-mcp-config --system-prompt-file <file>}, and {@code --model} when one is
 * named: no tools, no MCP servers, nothing kept on disk.
 */
final class ClaudeCliArgs {
  /** Tools a chat channel's session may not use (role {@link SessionSpec#CHAT_ROLE}). */
  static final List<String> CHAT_DISALLOWED_TOOLS =
      List.of("Bash", "Edit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "Task");

  private final ClaudeCliBackend.Options options;

  ClaudeCliArgs(ClaudeCliBackend.Options options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /**
   * The command line of one process of the session {@code spec}, CLI conversation {@code id}.
   *
   * @param mcpConfig the session's {@code --mcp-config}, built once per session ({@link
   *     McpConfigSource#forSession}), or empty for none
   */
  List<String> session(
      SessionSpec spec,
      String id,
      boolean resume,
      Path systemPromptFile,
      Optional<String> mcpConfig) {
    List<String> cmd = new ArrayList<>();
    cmd.add(options.executable().toString());
    cmd.addAll(
        List.of(
            "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"));
    cmd.add(resume ? "--resume" : "--session-id");
    cmd.add(id);
    cmd.add("--system-prompt-file");
    cmd.add(systemPromptFile.toString());
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
    if (mcpConfig.isPresent()) {
      cmd.add("--mcp-config");
      cmd.add(mcpConfig.get());
    }
    return cmd;
  }

  /** The command line of a process answering one question. */
  List<String> complete(Path systemPromptFile, String model) {
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
            "--system-prompt-file",
            systemPromptFile.toString()));
    if (model != null && !model.isBlank()) {
      cmd.add("--model");
      cmd.add(model);
    }
    return cmd;
  }
}
