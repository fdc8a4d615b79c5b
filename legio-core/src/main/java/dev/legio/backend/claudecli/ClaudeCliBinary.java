package dev.legio.backend.claudecli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the {@code claude} executable: the configured one, else {@code claude} on the {@code PATH},
 * else the copy {@code bin/install-claude-cli} installs with npm into Legio's cache folder ({@code
 * LEGIO_CLAUDE_CLI_DIR}, default {@code ~/.cache/legio/claude-code}).
 */
public final class ClaudeCliBinary {
  /** The CLI version {@code bin/install-claude-cli} installs and the tests run. */
  public static final String PINNED_VERSION = "2.1.112";

  public static final String DEFAULT_NAME = "claude";

  private ClaudeCliBinary() {}

  /** No usable {@code claude} executable was found; the message says how to get one. */
  public static final class NotFoundException extends RuntimeException {
    NotFoundException(String message) {
      super(message);
    }
  }

  /** Legio's npm cache folder for the CLI. */
  public static Path cacheFolder(Map<String, String> env) {
    String configured = env.get("LEGIO_CLAUDE_CLI_DIR");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    return Path.of(home, ".cache", "legio", "claude-code");
  }

  /** The CLI installed in the cache folder, if it is there. */
  public static Optional<Path> cached(Map<String, String> env) {
    Path bin = cacheFolder(env).resolve("node_modules/.bin/claude");
    return Files.isExecutable(bin) ? Optional.of(bin.toAbsolutePath()) : Optional.empty();
  }

  /**
   * The command that runs the CLI.
   *
   * @param configured {@code [backend.claude_cli] binary}: a path, or a name looked up on the
   *     {@code PATH}; {@code "claude"} also falls back to the cache folder
   * @throws NotFoundException when there is none, saying how to install it or choose another
   *     back-end
   */
  public static Path locate(String configured, Map<String, String> env) {
    String name = configured == null || configured.isBlank() ? DEFAULT_NAME : configured;
    List<String> looked = new ArrayList<>();
    if (name.contains("/") || name.contains(File.separator)) {
      Path path = Path.of(name);
      if (Files.isRegularFile(path) && Files.isExecutable(path)) {
        return path.toAbsolutePath();
      }
      looked.add(path.toAbsolutePath().toString());
    } else {
      Optional<Path> onPath = onPath(name, env.getOrDefault("PATH", ""));
      if (onPath.isPresent()) {
        return onPath.get();
      }
      looked.add("'" + name + "' on the PATH");
      if (name.equals(DEFAULT_NAME)) {
        Optional<Path> cached = cached(env);
        if (cached.isPresent()) {
          return cached.get();
        }
        looked.add(cacheFolder(env).resolve("node_modules/.bin/claude").toString());
      }
    }
    throw new NotFoundException(
        "[backend] kind = \"claude-cli\" needs the Claude Code CLI, but no executable was found"
            + " (looked for "
            + String.join(" and ", looked)
            + "). Install it with `bin/install-claude-cli` (npm, into "
            + cacheFolder(env)
            + ") or `npm install -g @anthropic-ai/claude-code`, or set [backend.claude_cli] binary"
            + " to its path, or choose another back-end with [backend] kind (e.g. \"offline\").");
  }

  private static Optional<Path> onPath(String name, String path) {
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate.toAbsolutePath());
      }
    }
    return Optional.empty();
  }
}
