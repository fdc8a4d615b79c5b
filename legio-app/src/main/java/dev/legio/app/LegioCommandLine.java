package dev.legio.app;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line that starts {@code legio} again as this process runs it (the MCP server the
 * Claude Code CLI starts, the chaos benchmark's processes): the same java, the class path with
 * absolute entries (the child may start in another folder), and the main class.
 *
 * <p>The JVM's own log lines go to stderr ({@link #JVM_LOG_ON_STDERR}, on a HotSpot JVM, whose
 * flags they are): by default the JVM writes its warnings and errors to stdout, where a child's
 * output is data (an MCP server's JSON-RPC lines), so one warning that {@code JAVA_TOOL_OPTIONS}
 * brought ({@code -XX:+UseLargePages} on a host without large pages, a CDS archive that does not
 * fit) was read by the MCP client as a broken message. Log files the options name are kept. The
 * {@code ./legio} launcher passes the same flags.
 *
 * <p>A child takes the JVM's attach ({@code jcmd}, profilers) only when this process does: {@code
 * ./legio} starts Legio with {@code -XX:+DisableAttachMechanism} (see {@link ProcessSecretsGuard}),
 * and a {@code legio mcp} child, which the Claude Code CLI runs beside its agents' commands outside
 * {@code legio serve} and which holds the database's credentials, is started with it too.
 */
public final class LegioCommandLine {
  private LegioCommandLine() {}

  /**
   * The {@code legio} command's main class (the jar's {@code Main-Class}), named rather than
   * imported so that the composition root does not depend on the command line built over it.
   */
  public static final String MAIN_CLASS = "dev.legio.app.cli.Main";

  /**
   * Stdout gets none of the JVM's log lines; its warnings and errors go to stderr instead (the
   * outputs that options such as {@code -Xlog:gc:file=...} configured stay as they are).
   */
  static final List<String> JVM_LOG_ON_STDERR =
      List.of("-Xlog:all=off:stdout", "-Xlog:all=warning:stderr");

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
    return command(program, classPath, HOT_SPOT, NO_ATTACH_HERE);
  }

  /** Whether this JVM is HotSpot; the same for the process's life. */
  private static final boolean HOT_SPOT = isHotSpot(System.getProperty("java.vm.name", ""));

  /** Whether this JVM takes no attach: a start-up flag, asked once. */
  private static final boolean NO_ATTACH_HERE = HOT_SPOT && ProcessSecretsGuard.attachDisabled();

  /**
   * The command line for a JVM at {@code program} with this class path: HotSpot's flags only on a
   * HotSpot JVM, no attach when {@code noAttach}.
   */
  static List<String> command(String program, String classPath, boolean hotSpot, boolean noAttach) {
    List<String> command = new ArrayList<>();
    command.add(program);
    if (hotSpot) {
      command.addAll(JVM_LOG_ON_STDERR);
      if (noAttach) {
        command.add(NO_ATTACH);
      }
    }
    command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", classPath, MAIN_CLASS));
    return List.copyOf(command);
  }

  static final String NO_ATTACH = "-XX:+DisableAttachMechanism";

  /**
   * Whether a JVM of this name takes HotSpot's {@code -Xlog} flags: OpenJDK's and Oracle's builds
   * (Temurin, GraalVM's JDK, ...) name themselves so; OpenJ9 and others do not, and get none.
   */
  static boolean isHotSpot(String vmName) {
    return vmName.contains("HotSpot") || vmName.startsWith("OpenJDK");
  }
}
