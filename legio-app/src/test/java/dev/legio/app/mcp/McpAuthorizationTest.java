package dev.legio.app.mcp;

import static dev.legio.app.mcp.McpHttpTransportTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.config.LegioConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code /mcp} reads its caller's {@code Authorization} header: as the API reads it. */
class McpAuthorizationTest {
  @TempDir static Path dir;
  static LegioApp app;
  static McpHttpServer server;
  static McpHttpClient anonymous;
  static String token;

  @BeforeAll
  static void start() {
    app = McpTestApps.initialised(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0), app.mcpTokens(), app::toolsFor, c -> true);
    token = app.mcpTokens().tokenFor("vorenus");
    anonymous = new McpHttpClient(server.endpoint(), null);
  }

  @AfterAll
  static void stop() {
    server.close();
    app.close();
  }

  private static HttpResponse<String> initializeWith(String authorization) throws Exception {
    return anonymous.post(McpHttpClient.INITIALIZE, null, "Authorization", authorization);
  }

  @Test
  void theSchemeInAnyCaseAndATabAfterItCarryTheToken() throws Exception {
    for (String header : List.of("Bearer\t" + token, "bearer " + token, "BEARER \t" + token)) {
      HttpResponse<String> r = initializeWith(header);
      assertThat(r.statusCode()).as(header.substring(0, 7) + ": " + r.body()).isEqualTo(200);
      assertThat(r.headers().firstValue("Mcp-Session-Id")).isPresent();
    }
  }

  @Test
  void aHeaderOfAnotherSchemeOrWithoutATokenSaysSoAndIsNotAnUnknownToken() throws Exception {
    String[][] refusals = {
      {"Basic x", "does not start with Bearer"},
      {token, "does not start with Bearer"},
      {"Bearer", "holds no token after Bearer"},
      {"Bearer \t ", "holds no token after Bearer"},
    };
    for (String[] refusal : refusals) {
      HttpResponse<String> r = initializeWith(refusal[0]);
      assertError(r, 401, null, -32000, refusal[1]);
      assertThat(r.body())
          .contains("send Authorization: Bearer TOKEN", "legio mcp token NAME")
          .doesNotContain(token);
      String challenge = r.headers().firstValue("WWW-Authenticate").orElseThrow();
      assertThat(challenge)
          .startsWith("Bearer realm=\"legio\"")
          .contains("resource_metadata=\"")
          .doesNotContain("error=");
    }
    HttpResponse<String> unknown = initializeWith("Bearer mcp_not-a-token");
    assertError(unknown, 401, null, -32000, "unknown token: send Authorization: Bearer TOKEN");
    assertThat(unknown.headers().firstValue("WWW-Authenticate").orElseThrow())
        .contains("error=\"invalid_token\"");
  }

  @Test
  void twoAuthorizationHeadersAreRefusedEvenWhenTheFirstIsRight() throws Exception {
    for (String second : List.of("Bearer " + token, "Bearer mcp_not-a-token")) {
      String answer = rawInitialize("Bearer " + token, second);
      assertThat(answer)
          .startsWith("HTTP/1.1 400")
          .contains("-32000", "more than one Authorization header")
          .doesNotContain("Mcp-Session-Id", token);
    }
    // The JDK client sends two headers given twice, as a proxy adding its own might.
    HttpResponse<String> r =
        anonymous.http.send(
            anonymous
                .request(null)
                .header("Authorization", "Bearer " + token)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(McpHttpClient.INITIALIZE))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(r, 400, null, -32000, "send one, Authorization: Bearer TOKEN");
  }

  /** An initialize sent with each of {@code authorizations} as its own header. */
  private static String rawInitialize(String... authorizations) throws IOException {
    int port = server.endpoint().getPort();
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      byte[] body = McpHttpClient.INITIALIZE.getBytes(StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port);
      for (String authorization : authorizations) {
        head.append("\r\nAuthorization: ").append(authorization);
      }
      head.append("\r\nContent-Type: application/json\r\n")
          .append("Accept: application/json, text/event-stream\r\nContent-Length: ")
          .append(body.length)
          .append("\r\nConnection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
