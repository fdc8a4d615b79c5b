package dev.legio.app.mcp;

import static dev.legio.app.mcp.McpHttpTransportTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.config.LegioConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How large a POST to {@code /mcp} may be: {@code [server] max_body_bytes}, as for the API. */
class McpBodyLimitTest {
  @TempDir static Path dir;
  static LegioApp app;
  static McpHttpServer server;
  static String token;

  @BeforeAll
  static void start() {
    app = McpTestApps.initialised(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0), app.mcpTokens(), app::toolsFor, c -> true);
    token = app.mcpTokens().tokenFor("vorenus");
  }

  @AfterAll
  static void stop() {
    server.close();
    app.close();
  }

  @Test
  void theBodyLimitIsTheConfiguredOne() throws Exception {
    // legio serve passes [server] max_body_bytes (3 × [praetorium] max_message_bytes + 64 KiB)
    for (long limit : new long[] {8L << 20, 4096}) {
      String ping =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
              + "x".repeat(limit > 4096 ? 5 << 20 : 5000)
              + "\"}}";
      try (McpHttpServer limited =
          McpHttpServer.start(
              new LegioConfig.Mcp(true, "127.0.0.1", 0),
              app.mcpTokens(),
              app::toolsFor,
              c -> true,
              List.of(),
              limit)) {
        McpHttpClient limitedClient = new McpHttpClient(limited.endpoint(), token);
        String session = limitedClient.session();
        HttpResponse<String> r = limitedClient.post(ping, session);
        if (limit > 4096) {
          assertThat(r.statusCode()).as(r.body()).isEqualTo(200); // the old endpoint: 413 at 4 MiB
        } else {
          assertError(r, 413, null, -32600, "larger than 4096 bytes ([server] max_body_bytes");
        }
      }
    }
  }

  @Test
  void aBodyDeclaredOverTheLimitIs413AtOnceNotAWaitForBytesThatWillNotCome() throws Exception {
    String answer =
        McpHttpClient.rawPostDeclaring(server.endpoint().getPort(), token, 99_999_999_999L, "{}");
    assertThat(answer).startsWith("HTTP/1.1 413").contains("larger than");
  }
}
