package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The CLI's command lines, one row per case: no process is started. */
class ClaudeCliArgsTest {
  private static final String ID = "0b6f3c52-2d0a-4f64-9a53-7f4f1c2d9e10";
  private static final String PROMPT = "You are vorenus.";

  /** Where the system prompt is handed over (never on the command line). */
  private static final String PROMPT_FILE = "/run/user/1000/legio/claude-cli-prompts/1-2-x";

  private static final List<String> STREAM =
      List.of(
          "claude",
          "-p",
          "--input-format",
          "stream-json",
          "--output-format",
          "stream-json",
          "--verbose");

  /** An MCP configuration for agents only: chat channels get none. */
  private static final McpConfigSource MEMORIA =
      new McpConfigSource() {
        @Override
        public Optional<String> forSession(SessionSpec spec) {
          return spec.owner().contains("#") ? Optional.empty() : Optional.of("{\"mcpServers\":{}}");
        }

        @Override
        public List<String> allowedTools(SessionSpec spec) {
          return List.of("mcp__memoria_" + spec.owner());
        }
      };

  private static ClaudeCliBackend.Options options(
      String permissionMode, List<String> allowedTools, McpConfigSource mcp) {
    return new ClaudeCliBackend.Options(
        Path.of("claude"),
        Mode.PERSISTENT,
        permissionMode,
        allowedTools,
        Duration.ofSeconds(60),
        Path.of("."),
        Map.of(),
        mcp);
  }

  private static SessionSpec operator(String model) {
    return new SessionSpec("vorenus", PROMPT, model, SessionSpec.OPERATOR_ROLE, null);
  }

  private static SessionSpec chat() {
    return new SessionSpec("discord#forum", PROMPT, null, SessionSpec.CHAT_ROLE, null);
  }

  private static List<String> stream(String... rest) {
    return Stream.concat(STREAM.stream(), Stream.of(rest)).toList();
  }

  static Stream<Arguments> sessions() {
    String chatNo = String.join(",", ClaudeCliArgs.CHAT_DISALLOWED_TOOLS);
    return Stream.of(
        Arguments.of(
            "a new conversation, nothing configured",
            options("", List.of(), null),
            operator(null),
            false,
            stream("--session-id", ID, "--system-prompt-file", PROMPT_FILE)),
        Arguments.of(
            "a known conversation is resumed, with the agent's model",
            options("", List.of(), null),
            operator("claude-opus-4-1"),
            true,
            stream(
                "--resume", ID, "--system-prompt-file", PROMPT_FILE, "--model", "claude-opus-4-1")),
        Arguments.of(
            "a blank model is not passed",
            options("", List.of(), null),
            operator("  "),
            false,
            stream("--session-id", ID, "--system-prompt-file", PROMPT_FILE)),
        Arguments.of(
            "permission mode and allowed tools, then the MCP servers' tools and config",
            options("acceptEdits", List.of("Read", "Grep"), MEMORIA),
            operator(null),
            false,
            stream(
                "--session-id",
                ID,
                "--system-prompt-file",
                PROMPT_FILE,
                "--permission-mode",
                "acceptEdits",
                "--allowedTools",
                "Read,Grep,mcp__memoria_vorenus",
                "--mcp-config",
                "{\"mcpServers\":{}}")),
        Arguments.of(
            "a chat channel gets the default permission mode and no dangerous tools",
            options("bypassPermissions", List.of(), null),
            chat(),
            false,
            stream(
                "--session-id",
                ID,
                "--system-prompt-file",
                PROMPT_FILE,
                "--permission-mode",
                "default",
                "--disallowedTools",
                chatNo)),
        Arguments.of(
            "a chat channel keeps allowed tools but has no MCP config of its own here",
            options("", List.of("Read"), MEMORIA),
            chat(),
            true,
            stream(
                "--resume",
                ID,
                "--system-prompt-file",
                PROMPT_FILE,
                "--permission-mode",
                "default",
                "--allowedTools",
                "Read,mcp__memoria_discord#forum",
                "--disallowedTools",
                chatNo)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sessions")
  void aSessionsProcess(
      String name,
      ClaudeCliBackend.Options options,
      SessionSpec spec,
      boolean resume,
      List<String> expected) {
    assertThat(
            new ClaudeCliArgs(options)
                .session(
                    spec, ID, resume, Path.of(PROMPT_FILE), options.mcpConfig().forSession(spec)))
        .isEqualTo(expected)
        .doesNotContain(PROMPT);
  }

  static Stream<Arguments> questions() {
    List<String> base =
        List.of(
            "claude",
            "-p",
            "--output-format",
            "json",
            "--no-session-persistence",
            "--tools",
            "",
            "--strict-mcp-config",
            "--system-prompt-file",
            PROMPT_FILE);
    return Stream.of(
        Arguments.of(null, base),
        Arguments.of("", base),
        Arguments.of(
            "claude-haiku-4-5",
            Stream.concat(base.stream(), Stream.of("--model", "claude-haiku-4-5")).toList()));
  }

  @ParameterizedTest(name = "model {0}")
  @MethodSource("questions")
  void oneQuestionHasNoToolsNoMcpAndNoSessionOnDisk(String model, List<String> expected) {
    ClaudeCliBackend.Options options = options("acceptEdits", List.of("Read"), MEMORIA);
    assertThat(new ClaudeCliArgs(options).complete(Path.of(PROMPT_FILE), model))
        .isEqualTo(expected);
  }
}
