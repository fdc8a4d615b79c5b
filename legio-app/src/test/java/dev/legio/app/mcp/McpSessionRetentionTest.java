package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions their clients left without a DELETE are ended ({@link SessionRetention}), over real
 * HTTP: at most 3 sessions a caller and an idle limit of one hour here, on a clock the test moves.
 */
class McpSessionRetentionTest {
  static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";

  @TempDir Path dir;
  LegioApp app;
  Server jetty;
  McpHttpClient client;
  final AtomicLong now = new AtomicLong(1_000_000_000L);

  @BeforeEach
  void start() throws Exception {
    app = McpTestApps.initialised(dir);
    McpEndpoint endpoint =
        new McpEndpoint(
            app.mcpTokens(),
            app::toolsFor,
            c -> true,
            "127.0.0.1",
            List.of(),
            () -> new CallerTransport(new SessionRetention(Duration.ofHours(1), 3), now::get));
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    endpoint.mount(context, "/mcp");
    jetty.setHandler(context);
    jetty.start();
    client =
        new McpHttpClient(
            URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/mcp"),
            app.mcpTokens().tokenFor("vorenus"));
  }

  @AfterEach
  void stop() throws Exception {
    jetty.stop();
    app.close();
  }

  private int status(String session) throws Exception {
    return client.post(LIST, session).statusCode();
  }

  private void later(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void pastTheLimitTheLongestIdleSessionsEndAndAnsweredNotFound() throws Exception {
    String first = client.session();
    later(Duration.ofSeconds(1));
    String second = client.session();
    later(Duration.ofSeconds(1));
    String third = client.session();
    later(Duration.ofSeconds(1));
    assertThat(status(first)).as("used last").isEqualTo(200);
    later(Duration.ofSeconds(1));
    String fourth = client.session();

    HttpResponse<String> ended = client.post(LIST, second);
    assertThat(ended.statusCode()).isEqualTo(404);
    assertThat(ended.body()).contains("send initialize again");
    for (String kept : List.of(first, third, fourth)) {
      assertThat(status(kept)).as(kept).isEqualTo(200);
    }
  }

  @Test
  void sessionsIdlePastTheLimitEndWhenAnotherOpensAndOneInUseNeverDoes() throws Exception {
    String idle = client.session();
    String listening = client.session();
    // A client listening on its GET stream: the session is in use for as long as it listens.
    HttpResponse<InputStream> stream =
        client.http.send(
            client.request(listening).header("Accept", "text/event-stream").GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.body().read()).as("the priming event").isPositive();

    later(Duration.ofHours(2));
    String fresh = client.session();

    assertThat(status(idle)).isEqualTo(404);
    assertThat(status(listening)).isEqualTo(200);
    assertThat(status(fresh)).isEqualTo(200);
    stream.body().close();
  }
}
