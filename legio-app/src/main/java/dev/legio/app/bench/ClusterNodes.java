package dev.legio.app.bench;

import dev.legio.app.LegioCommandLine;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.Role;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code legio serve} processes of {@code legio bench cluster}: one workspace each (its own
 * {@code legio.toml} with its own loopback port, the offline model, the same operator token), all
 * on one PostgreSQL schema ({@code LEGIO_DB_URL}); started, SIGKILLed and restarted by the bench.
 */
final class ClusterNodes implements AutoCloseable {
  private static final Duration READY_WITHIN = Duration.ofMinutes(3);

  /** One node: where it lives, its port, its process while it runs. */
  static final class Node {
    final int index;
    final Path workspace;
    final int port;
    final URI url;
    volatile Process process;
    int starts;

    Node(int index, Path workspace, int port) {
      this.index = index;
      this.workspace = workspace;
      this.port = port;
      this.url = URI.create("http://127.0.0.1:" + port);
    }
  }

  private final Path dir;
  private final Map<String, String> env;
  private final List<Node> nodes = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  final String token;

  /**
   * Makes {@code count} workspaces under {@code dir} sharing the database {@code env} names and one
   * operator token; starts nothing.
   */
  ClusterNodes(Path dir, int count, Map<String, String> env) throws IOException {
    this.dir = dir;
    this.env = env;
    String secret = null;
    Path tokens = null;
    for (int i = 0; i < count; i++) {
      Path ws = dir.resolve("node-" + (i + 1));
      WorkspaceInitializer.initialise(new Workspace(ws));
      int port = freePort();
      Path toml = ws.resolve("legio.toml");
      Files.writeString(
          toml,
          Files.readString(toml)
              .replace("\nport = 8740", "\nport = " + port)
              .replace("http_port = 8740", "http_port = " + port)
              .replace("kind = \"auto\"", "kind = \"offline\""));
      Path castra = new Workspace(ws).castra();
      if (secret == null) {
        ApiTokens made = new ApiTokens(castra);
        secret = made.create("bench-cluster", Role.OPERATOR, List.of()).secret();
        tokens = made.file();
      } else {
        Path copy = new ApiTokens(castra).file();
        Files.createDirectories(copy.getParent());
        Files.copy(tokens, copy, StandardCopyOption.REPLACE_EXISTING);
      }
      nodes.add(new Node(i, ws, port));
    }
    this.token = secret;
  }

  List<Node> nodes() {
    return nodes;
  }

  /**
   * Whether each node records a host of its own with its leases ({@code LEGIO_NODE_NAME}), as on
   * separate machines: a dead node's leases are then freed by their time only, not by its pid.
   */
  boolean separateHosts;

  /** Starts {@code node}'s {@code legio serve}; returns at once. */
  void start(Node node) throws IOException {
    node.starts++;
    Path out = dir.resolve("node-" + (node.index + 1) + "-run-" + node.starts + ".out");
    List<String> command = new ArrayList<>(LegioCommandLine.ofThisProcess());
    command.addAll(List.of("--castra", node.workspace.toString(), "serve"));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    if (separateHosts) {
      builder.environment().put("LEGIO_NODE_NAME", "bench-host-" + (node.index + 1));
    }
    node.process = builder.start();
  }

  /**
   * Waits until {@code node} answers {@code GET /readyz} with 200; false if it died or timed out.
   */
  boolean awaitReady(Node node) throws InterruptedException {
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      Process p = node.process;
      if (p == null || !p.isAlive()) {
        return false;
      }
      try {
        HttpResponse<Void> r =
            http.send(
                HttpRequest.newBuilder(node.url.resolve("/readyz"))
                    .timeout(Duration.ofSeconds(5))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return true;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    return false;
  }

  /** SIGKILLs {@code node} and waits for its process to end. */
  void kill(Node node) throws InterruptedException {
    Process p = node.process;
    if (p != null) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Stops every node with SIGTERM (a drain), then SIGKILL after a minute. */
  @Override
  public void close() {
    for (Node n : nodes) {
      if (n.process != null) {
        n.process.destroy();
      }
    }
    for (Node n : nodes) {
      if (n.process != null) {
        try {
          if (!n.process.waitFor(60, TimeUnit.SECONDS)) {
            n.process.destroyForcibly();
          }
        } catch (InterruptedException e) {
          n.process.destroyForcibly();
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
