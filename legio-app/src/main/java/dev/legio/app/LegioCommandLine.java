package dev.legio.app;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line that starts {@code legio} again as this process runs it (the MCP server the
 * Claude Code CLI starts, the chaos benchmark's processes): the same java, the class path with
 * absolute entries (the child may start in another folder), and the main class.
 */
public final class LegioCommandLine {
  private LegioCommandLine() {}

  /**
   * The {@code legio} command's main class (the jar's {@code Main-Class}), named rather than
   * imported so that the composition root does not depend on the command line built over it.
   */
  public static final String MAIN_CLASS = "dev.legio.app.cli.Main";

  /** The command line that runs {@code legio} as this process does: java, class path, main. */
  public static List<String> ofThisProcess() {
    String program =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // Absolute entries: the child may start in another directory.
    String classPath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .map(entry -> Path.of(entry).toAbsolutePath().toString())
            .collect(Collectors.joining(File.pathSeparator));
    return List.of(program, "--enable-native-access=ALL-UNNAMED", "-cp", classPath, MAIN_CLASS);
  }
}
