package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's pages and assets over real HTTP: what is served, with which headers, and what not.
 */
class ConsolePagesTest {
  static final List<String> MODULES =
      List.of(
          "app.js",
          "loading.js",
          "api.js",
          "events.js",
          "legion.js",
          "conversation.js",
          "agents.js",
          "sessions.js",
          "memoria.js",
          "usage.js",
          "viewer.js",
          "signin.js",
          "text.js",
          "format.js",
          "vendor/htm-preact-standalone.js");

  @TempDir Path dir;
  ServerFixture server;

  @BeforeEach
  void start() throws Exception {
    server = new ServerFixture(dir, Duration.ofSeconds(5), LegioServer.DEFAULT_EVENT_BUFFER);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void consoleAndViewerPagesLoadWithoutATokenUnderAStrictContentSecurityPolicy() throws Exception {
    for (String path : List.of("/", "/viewer/main")) {
      HttpResponse<String> page = server.get(path, null);
      assertThat(page.statusCode()).as(path).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html;charset=utf-8");
      assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
          .contains("default-src 'none'")
          .contains("script-src 'self';")
          .contains("connect-src 'self'")
          .doesNotContain("unsafe");
      assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      assertThat(page.body()).contains("<script type=\"module\" src=\"/console/");
      assertThat(page.body()).doesNotContainPattern("<script(?![^>]*\\ssrc=)[^>]*>");
    }
    assertThat(server.get("/", null).body()).contains("/console/app.js");
    assertThat(server.get("/viewer/main", null).body()).contains("/console/viewer.js");
  }

  @Test
  void everyModuleIsServedAsJavaScriptAndImportsOnlyFromThisServer() throws Exception {
    Pattern imports = Pattern.compile("(?m)^\\s*import\\s[^;]*?from\\s*['\"]([^'\"]+)['\"]");
    for (String module : MODULES) {
      HttpResponse<String> asset = server.get("/console/" + module, null);
      assertThat(asset.statusCode()).as(module).isEqualTo(200);
      assertThat(asset.headers().firstValue("Content-Type").orElseThrow())
          .as(module)
          .startsWith("text/javascript");
      assertThat(asset.headers().firstValue("Content-Security-Policy")).isPresent();
      assertThat(asset.body()).as(module).doesNotContainPattern("\\bimport\\s*\\(");
      Matcher m = imports.matcher(asset.body());
      while (m.find()) {
        assertThat(m.group(1)).as(module + " imports " + m.group(1)).startsWith("./");
      }
    }
    HttpResponse<String> css = server.get("/console/console.css", null);
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.body()).doesNotContain("@import").doesNotContain("url(");
  }

  @Test
  void anotherMethodOnAnAssetIsMethodNotAllowedNamingWhatToUseNotNotFound() throws Exception {
    for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
      for (String asset : List.of("app.js", "console.css", "vendor/htm-preact-standalone.js")) {
        HttpResponse<String> answer =
            server.http.send(
                server
                    .request("/console/" + asset, null)
                    .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(method + " " + asset).isEqualTo(405);
        assertThat(answer.headers().firstValue("Allow")).as(asset).hasValue("GET, HEAD");
        assertThat(answer.headers().firstValue("Content-Security-Policy")).isPresent();
        assertThat(ServerFixture.json(answer).get("error").asText())
            .as(method + " " + asset)
            .contains(method + " is not taken here")
            .contains("use GET or HEAD");
      }
    }
    // What GET does not serve stays 404 whatever the method: no file is there to name.
    for (String path : List.of("/console/missing.js", "/console/vendor/", "/console/")) {
      assertThat(server.postRaw(path, null, "application/json", "{}").statusCode())
          .as(path)
          .isEqualTo(404);
    }
    // OPTIONS stays Jetty's 200 with its Allow; GET still serves the file.
    HttpResponse<String> options =
        server.http.send(
            server
                .request("/console/app.js", null)
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(options.statusCode()).isEqualTo(200);
    assertThat(server.get("/console/app.js", null).statusCode()).isEqualTo(200);
  }

  @Test
  void aConnectIsRefusedAndItsConnectionClosedNotKeptForATunnel() throws Exception {
    int port = server.uri("/").getPort();
    for (String request :
        List.of(
            "CONNECT localhost:" + port + " HTTP/1.1\r\nHost: localhost:" + port,
            "CONNECT localhost:"
                + port
                + " HTTP/1.1\r\nHost: localhost:"
                + port
                + "\r\nConnection: close",
            "CONNECT example.com:443 HTTP/1.0\r\nConnection: close")) {
      String answer = untilClosed(request + "\r\n\r\n");
      assertThat(answer).as(request).startsWith("HTTP/1.1 405");
      assertThat(answer).as(request).contains("\r\nAllow: GET, HEAD\r\n");
      assertThat(answer).as(request).containsIgnoringCase("\r\nConnection: close\r\n");
      assertThat(ServerFixture.rawError(answer)).contains("CONNECT is not taken here");
    }
  }

  /**
   * Sends {@code request} over a socket and returns the answer once the server has closed the
   * connection; fails if it is still open 5 s after the answer began.
   */
  private String untilClosed(String request) throws IOException {
    java.net.URI base = server.uri("/");
    try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          out.write(buffer, 0, n);
        }
      } catch (java.net.SocketTimeoutException e) {
        throw new AssertionError(
            "the connection was left open after: " + out.toString(StandardCharsets.UTF_8), e);
      }
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void nothingElseIsServedAndTheApiIsUnchanged() throws Exception {
    for (String path :
        List.of(
            "/console/",
            "/console/missing.js",
            "/console/vendor/",
            "/viewer/",
            "/viewer/a/b",
            "/viewer/a.b",
            "/viewer/" + "x".repeat(65),
            "/index.html",
            "/console/..%2Fserver%2Fopenapi.json",
            "/console/../server/openapi.json")) {
      HttpResponse<String> response = server.get(path, null);
      assertThat(response.statusCode()).as(path).isIn(400, 403, 404);
      assertThat(response.body()).as(path).doesNotContain("openapi\"");
    }
    assertThat(server.postRaw("/", server.operator, "application/json", "{}").statusCode())
        .isEqualTo(405);
    // The 405 says what to use, as the API's own does, not only that the request was refused.
    HttpResponse<String> posted =
        server.postRaw("/viewer/main", server.operator, "application/json", "{}");
    assertThat(posted.statusCode()).isEqualTo(405);
    assertThat(ServerFixture.json(posted).get("error").asText())
        .contains("POST is not taken here")
        .contains("use GET or HEAD");
    assertThat(server.get("/healthz", null).statusCode()).isEqualTo(200);
    // HEAD answers a page's or a health check's headers, as GET would, without the body.
    for (String path : List.of("/", "/viewer/main", "/healthz", "/readyz")) {
      HttpResponse<String> get = server.get(path, null);
      HttpResponse<String> head =
          server.http.send(
              server
                  .request(path, null)
                  .method("HEAD", HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(head.statusCode()).as(path).isEqualTo(200);
      assertThat(head.body()).as(path).isEmpty();
      assertThat(head.headers().firstValueAsLong("Content-Length"))
          .as(path)
          .hasValue(get.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }
    HttpResponse<String> api = server.get("/api/v1/status", null);
    assertThat(api.statusCode()).isEqualTo(401);
    assertThat(ServerFixture.json(api).path("error").asText()).contains("Bearer");
    assertThat(server.get("/api/v1/status", server.operator).statusCode()).isEqualTo(200);
  }

  /**
   * OPTIONS of an asset is Jetty's answer (200, its Allow, no body), not a 500 with a stack trace
   * in the log: the JSON error body once went into an answer whose Content-Length was 0.
   */
  @Test
  void optionsOfAnAssetIsAnsweredWithItsMethodsNotAServerError() throws Exception {
    for (String path : List.of("/console/app.js", "/console/console.css")) {
      HttpResponse<String> options =
          server.http.send(
              server
                  .request(path, null)
                  .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(options.statusCode()).as(path).isEqualTo(200);
      assertThat(options.headers().firstValue("Allow").orElseThrow()).as(path).contains("GET");
      assertThat(options.body()).as(path).isEmpty();
    }
    // Still the API's JSON errors for what is an error.
    HttpResponse<String> missing = server.get("/console/missing.js", null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(ServerFixture.json(missing).path("error").asText()).contains("nothing is served");
  }

  @Test
  void vendoredModuleIsTheOneItsNoticeNames() throws IOException {
    try (InputStream notice = resource("vendor/VENDOR.md");
        InputStream module = resource("vendor/htm-preact-standalone.js")) {
      String text = new String(notice.readAllBytes(), StandardCharsets.UTF_8);
      String sha = sha256(module.readAllBytes());
      assertThat(text).contains(sha);
    }
    assertThat(resource("vendor/LICENSE-htm.txt")).isNotNull();
    assertThat(resource("vendor/LICENSE-preact.txt")).isNotNull();
  }

  private static InputStream resource(String name) {
    return ConsolePagesTest.class
        .getClassLoader()
        .getResourceAsStream(ConsoleHandler.RESOURCES + name);
  }

  private static String sha256(byte[] bytes) {
    try {
      return java.util.HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
