package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.app.cli.Main;
import dev.legio.mcp.McpToolServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio mcp --agent NAME} as the real child process a client starts (the command {@code
 * legio mcp config} prints): the issue's own reproduction, a bad line between an initialize and a
 * ping, then stdin closed.
 */
class McpStdioProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** The command {@code legio mcp config --agent vorenus} prints for a new workspace. */
  private List<String> mcpCommand() throws Exception {
    StringWriter out = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "legion"},
                Map.of(),
                dir,
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true)))
        .isZero();
    Path ws = dir.resolve("legion");
    assertThat(
            Main.run(
                new String[] {"--castra", ws.toString(), "mcp", "config", "--agent", "vorenus"},
                Map.of(),
                dir,
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true)))
        .isZero();
    JsonNode server = JSON.readTree(out.toString()).at("/mcpServers/memoria_vorenus");
    List<String> command = new ArrayList<>();
    command.add(server.path("command").asText());
    server.path("args").forEach(a -> command.add(a.asText()));
    assertThat(McpToolServer.serverName("vorenus")).isEqualTo("memoria_vorenus");
    return command;
  }

  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

  @Test
  void theJvmsOwnWarningsGoToStderrNotIntoTheJsonRpcStream() throws Exception {
    // A JVM option from the environment that makes the JVM log an error at start: by default the
    // JVM writes it to stdout, before the server's first answer.
    ProcessBuilder pb = new ProcessBuilder(mcpCommand());
    pb.environment()
        .put("JAVA_TOOL_OPTIONS", "-XX:SharedArchiveFile=" + dir.resolve("no-such-archive.jsa"));
    Path err = dir.resolve("stderr.txt");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    try (OutputStream stdin = p.getOutputStream();
        BufferedReader stdout =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      stdin.write(INITIALIZE.getBytes(StandardCharsets.UTF_8));
      stdin.close();
      String first = stdout.readLine();
      assertThat(first).startsWith("{\"jsonrpc\"");
      assertThat(JSON.readTree(first).path("id").asInt()).isEqualTo(1);
      assertThat(stdout.readLine()).isNull();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    assertThat(java.nio.file.Files.readString(err)).contains("no-such-archive.jsa");
  }

  @Test
  void aBadLineIsAnsweredThePingToo_andTheProcessExitsWithinASecondOfStdinClosing()
      throws Exception {
    List<String> command = mcpCommand();
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (OutputStream stdin = p.getOutputStream();
        BufferedReader stdout =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      stdin.write(
          (INITIALIZE + "hello\n" + "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}\n")
              .getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      List<JsonNode> answers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String line = stdout.readLine();
        assertThat(line).as("answer %d of 3 (so far %s)", i + 1, answers).isNotNull();
        answers.add(JSON.readTree(line));
      }
      assertThat(answers).extracting(a -> a.path("id").asText()).contains("1", "null", "42");
      assertThat(answers)
          .filteredOn(a -> a.path("id").isNull())
          .singleElement()
          .satisfies(a -> assertThat(a.at("/error/code").asInt()).isEqualTo(-32700));
      long closed = System.nanoTime();
      stdin.close();
      assertThat(p.waitFor(5, TimeUnit.SECONDS)).as("exited within 5 s").isTrue();
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
      assertThat(tookMillis).as("milliseconds from stdin closing to exit").isLessThan(1000);
      assertThat(p.exitValue()).isZero();
      assertThat(stdout.readLine()).isNull();
    } finally {
      p.destroyForcibly();
    }
  }
}
