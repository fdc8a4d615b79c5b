package dev.legio.testing;

import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.backend.claudecli.ClaudeCliBinary;
import dev.legio.backend.claudecli.McpConfigSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The real Claude Code CLI for integration tests: the pinned version from Legio's npm cache folder
 * (installed on first use with {@code bin/install-claude-cli} when npm is there), run with its home
 * in a temporary folder, talking to a {@link FakeMessagesApi}, with telemetry, update checks and
 * error reporting off. Where it cannot be installed the calling test is skipped with a message;
 * under CI ({@code CI=true}) it fails instead.
 */
public final class RealClaudeCli {
  private static volatile Path executable;
  private static volatile String unavailable;

  private RealClaudeCli() {}

  /** The CLI executable, or the calling test is skipped (failed under CI) with the reason. */
  public static synchronized Path executable() {
    if (executable == null && unavailable == null) {
      locate();
    }
    if (executable == null) {
      String message =
          "The Claude Code CLI tests need the CLI: "
              + unavailable
              + ". Run bin/install-claude-cli (needs Node.js and npm).";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message + " Under CI these tests must run.");
      }
      Assumptions.abort(message);
    }
    return executable;
  }

  private static void locate() {
    Map<String, String> env = System.getenv();
    Optional<Path> cached = ClaudeCliBinary.cached(env);
    if (cached.isEmpty()) {
      Optional<Path> script = installScript();
      if (script.isEmpty()) {
        unavailable = "it is not in " + ClaudeCliBinary.cacheFolder(env) + " and no install script";
        return;
      }
      try {
        Process p =
            new ProcessBuilder(script.get().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
          p.destroyForcibly();
          unavailable = script.get() + " failed";
          return;
        }
      } catch (IOException e) {
        unavailable = "could not run " + script.get() + ": " + e.getMessage();
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        unavailable = "interrupted while installing it";
        return;
      }
      cached = ClaudeCliBinary.cached(env);
    }
    if (cached.isEmpty()) {
      unavailable = "it is not in " + ClaudeCliBinary.cacheFolder(env);
    } else {
      executable = cached.get();
    }
  }

  /** {@code bin/install-claude-cli}, looked for from the working directory upwards. */
  private static Optional<Path> installScript() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      Path script = dir.resolve("bin/install-claude-cli");
      if (Files.isExecutable(script)) {
        return Optional.of(script);
      }
      dir = dir.getParent();
    }
    return Optional.empty();
  }

  /**
   * The environment for a CLI whose home is {@code home} and whose API is {@code api}: no
   * telemetry, no update checks, no retries of failed API calls.
   */
  public static Map<String, String> environment(Path home, FakeMessagesApi api) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    env.put("ANTHROPIC_BASE_URL", api.baseUrl().toString());
    env.put("ANTHROPIC_API_KEY", "sk-ant-test-dummy");
    env.put("ANTHROPIC_AUTH_TOKEN", "");
    env.put("DISABLE_TELEMETRY", "1");
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("DISABLE_ERROR_REPORTING", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("CLAUDE_CODE_MAX_RETRIES", "0");
    return env;
  }

  /** Back-end options for the real CLI against {@code api}, running in {@code workDir}. */
  public static ClaudeCliBackend.Options options(
      Path home, Path workDir, FakeMessagesApi api, ClaudeCliBackend.Mode mode) {
    return new ClaudeCliBackend.Options(
        executable(),
        mode,
        "default",
        List.of(),
        Duration.ofSeconds(60),
        workDir,
        environment(home, api),
        McpConfigSource.none());
  }
}
