package dev.legio.mcp;

import static dev.legio.tools.ToolParameter.Type.STRING;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolParameter;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link McpStdio} serving a small real toolset over piped streams, for tests: what a client writes
 * to stdin and every line the server writes to stdout.
 */
final class StdioHarness implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Two tools: {@code echo} answers XML, {@code greet} a sentence. */
  static Toolset tools() {
    return new Toolbox(
        "vorenus",
        List.of(
            new ToolDefinition(
                "echo",
                "Echo the text.",
                List.of(ToolParameter.required("text", STRING, "What to echo.")),
                in -> "<echo said=\"" + in.string("text").replace("\"", "&quot;") + "\"/>"),
            new ToolDefinition("greet", "Greet.", List.of(), in -> "Ave, vorenus.")));
  }

  private final PipedOutputStream stdin = new PipedOutputStream();
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> all = new ArrayList<>();
  private final Thread server;
  private volatile long endedAtNanos;

  StdioHarness() throws IOException {
    this(tools(), out -> out);
  }

  /**
   * A harness serving {@code toolset}, the server writing through {@code stdout} (which wraps the
   * pipe the test reads, to watch or slow the server's writes).
   */
  StdioHarness(Toolset toolset, java.util.function.UnaryOperator<OutputStream> stdout)
      throws IOException {
    PipedInputStream serverIn = new PipedInputStream(stdin, 1 << 20);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream clientIn = new PipedInputStream(serverOut, 1 << 20);
    OutputStream serverStdout = stdout.apply(serverOut);
    server =
        new Thread(
            () -> {
              try {
                McpStdio.serve("vorenus", toolset, serverIn, serverStdout);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                endedAtNanos = System.nanoTime();
                try {
                  serverStdout.close();
                } catch (IOException ignored) {
                  // reader sees the end
                }
              }
            },
            "stdio-harness");
    server.setDaemon(true);
    server.start();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException ignored) {
                // the server closed stdout
              }
            },
            "stdio-harness-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Initializes the session as a client does (initialize, then notifications/initialized). */
  StdioHarness initialized() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
    answerTo("init");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return this;
  }

  void send(String line) throws IOException {
    sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  void sendBytes(byte[] bytes) throws IOException {
    OutputStream out = stdin;
    out.write(bytes);
    out.flush();
  }

  /** The next line the server writes within 100 ms (kept with the others), or null. */
  String poll() throws InterruptedException {
    String line = lines.poll(100, TimeUnit.MILLISECONDS);
    if (line != null) {
      all.add(line);
    }
    return line;
  }

  /** The next line the server writes, parsed. */
  JsonNode next() throws Exception {
    String line = lines.poll(10, TimeUnit.SECONDS);
    if (line == null) {
      throw new AssertionError("no answer within 10 s; so far: " + all);
    }
    all.add(line);
    return JSON.readTree(line);
  }

  /** The answer to {@code id}: among the lines read so far, or the next ones. */
  JsonNode answerTo(Object id) throws Exception {
    JsonNode want = JSON.valueToTree(id);
    for (String line : all) {
      JsonNode n = JSON.readTree(line);
      if (n.path("id").equals(want)) {
        return n;
      }
    }
    while (true) {
      JsonNode n = next();
      if (n.path("id").equals(want)) {
        return n;
      }
    }
  }

  /** Every line read so far. */
  List<String> seen() {
    return List.copyOf(all);
  }

  /** Closes stdin and returns how long the server took to end. */
  Duration closeStdin() throws Exception {
    long closed = System.nanoTime();
    stdin.close();
    server.join(5000);
    if (server.isAlive()) {
      throw new AssertionError("the server did not end within 5 s of stdin closing");
    }
    return Duration.ofNanos(endedAtNanos - closed);
  }

  @Override
  public void close() throws Exception {
    if (server.isAlive()) {
      closeStdin();
    }
  }
}
