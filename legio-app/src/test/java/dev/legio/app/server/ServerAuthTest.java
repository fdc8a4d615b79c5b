package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.http.SlowSender;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens and roles, through real HTTP: 401 without a valid token, 403 outside the role. */
class ServerAuthTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofSeconds(5), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  static final List<String[]> OPERATOR_ONLY =
      List.of(
          new String[] {"POST", "/api/v1/messages"},
          new String[] {"GET", "/api/v1/history"},
          new String[] {"GET", "/api/v1/status"},
          new String[] {"GET", "/api/v1/sessions"},
          new String[] {"GET", "/api/v1/sessions/" + java.util.UUID.randomUUID()},
          new String[] {"DELETE", "/api/v1/sessions/vorenus"},
          new String[] {"GET", "/api/v1/events"},
          new String[] {"GET", "/api/v1/memoria/acta"},
          new String[] {"GET", "/api/v1/memoria/acta/ford"},
          new String[] {"POST", "/api/v1/memoria/acta/ford"},
          new String[] {"GET", "/api/v1/openapi.json"});

  HttpResponse<String> call(String method, String path, String token) throws Exception {
    return switch (method) {
      case "GET" -> f.get(path, token);
      case "DELETE" -> f.delete(path, token);
      default -> f.post(path, token, Map.of("text", "hello"));
    };
  }

  @Test
  void aTokenFileDamagedWhileServingIs503WithoutThePathAndHealthStillAnswers() throws Exception {
    java.nio.file.Path file = new ApiTokens(f.app.workspace().castra()).file();
    java.nio.file.Files.writeString(file, "{not json");
    HttpResponse<String> refused = f.get("/api/v1/status", f.operator);
    assertError(refused, 503, "cannot check tokens now");
    assertThat(refused.body()).doesNotContain(file.toString(), "Exception", "tokens.json");
    assertThat(f.get("/healthz", null).statusCode()).isEqualTo(200);
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void withoutAValidTokenEveryEndpointIs401AndNothingIsLogged() throws Exception {
    for (String[] route : OPERATOR_ONLY) {
      HttpResponse<String> none = call(route[0], route[1], null);
      assertError(none, 401, "Authorization: Bearer");
      assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"legio\"");
      assertError(call(route[0], route[1], "legio_not-a-token"), 401, "unknown token");
    }
    assertError(
        f.post("/api/v1/channels/telegram:1/messages", null, Map.of("text", "hi")), 401, "Bearer");
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void anAuthorizationHeaderWithoutTheBearerSchemeSaysSoNotThatTheTokenIsUnknown()
      throws Exception {
    for (String header :
        List.of(
            f.operator,
            "Basic " + java.util.Base64.getEncoder().encodeToString(("x:" + f.operator).getBytes()),
            "Token " + f.operator,
            "Bearer_" + f.operator)) {
      HttpResponse<String> r =
          f.http.send(
              f.request("/api/v1/status", null).header("Authorization", header).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertError(r, 401, "does not start with Bearer");
      assertThat(r.body()).contains("Authorization: Bearer TOKEN").doesNotContain(f.operator);
      assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"legio\"");
    }
    HttpResponse<String> empty =
        f.http.send(
            f.request("/api/v1/status", null).header("Authorization", "Bearer   ").GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(empty, 401, "no token after Bearer");
    // The scheme in any case, and a tab after it, still carry the token.
    for (String header : List.of("bearer " + f.operator, "BEARER\t" + f.operator)) {
      assertThat(
              f.http
                  .send(
                      f.request("/api/v1/status", null)
                          .header("Authorization", header)
                          .GET()
                          .build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .as(header)
          .isEqualTo(200);
    }
  }

  @Test
  void answersDoNotNameTheServersSoftware() throws Exception {
    // Jetty's default connector says "Server: Jetty(12.x.y)" on every answer, refusals included.
    List<HttpResponse<String>> answers =
        List.of(
            f.get("/healthz", null),
            f.get("/api/v1/status", null),
            f.get("/api/v1/no-such-route", f.operator),
            f.get("/api/v1/history", f.operator));
    assertThat(answers).extracting(HttpResponse::statusCode).containsExactly(200, 401, 404, 200);
    for (HttpResponse<String> answer : answers) {
      assertThat(answer.headers().map().keySet())
          .as(answer.uri().toString())
          .doesNotContain("server", "x-powered-by");
    }
  }

  @Test
  void aRefusedRequestWhoseBodyNeverComesHoldsNoThreadAndClosesItsConnection() throws Exception {
    // Clients announce a body and never send it. Each is refused at once (no API thread waits for
    // the body), is told Connection: close, and sees its connection closed; more of them than the
    // API has threads leave the server answering.
    URI url = f.uri("/api/v1/messages");
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < ApiThreads.COUNT + 20; i++) {
        Socket socket = new Socket(url.getHost(), url.getPort());
        held.add(socket);
        socket.setSoTimeout(10_000);
        socket
            .getOutputStream()
            .write(
                ("POST /api/v1/messages HTTP/1.1\r\nHost: legio\r\n"
                        + "Authorization: Bearer legio_not-a-token\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
      }
      for (Socket socket : held) {
        // Read until the server closes the connection (one kept waiting would time out here).
        String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(answer).startsWith("HTTP/1.1 401");
        assertThat(answer.toLowerCase(Locale.ROOT)).contains("\r\nconnection: close\r\n");
      }
      assertThat(f.get("/healthz", null).statusCode()).isEqualTo(200);
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void aBodyThatStopsArrivingGets408AndATurnLongerThanTheIdleTimeoutIsStillAnswered()
      throws Exception {
    f.restart(Duration.ofSeconds(1));
    // A turn held for 2.5 s, with nothing to read or write meanwhile, is answered as usual.
    CompletableFuture<HttpResponse<String>> held = f.postHeld("@vorenus #hold");
    Thread.sleep(2_500);
    f.release();
    assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    long logged = f.app.messageLog().size();

    // A body that stops arriving is answered 408 after the idle timeout, and nothing is logged.
    String answer = SlowSender.stopsAfter(f.uri("/"), messagesHead(100), "{\"text\": \"@vorenus");
    assertThat(answer).startsWith("HTTP/1.1 408").contains("stopped arriving");
    assertThat(f.app.messageLog().size()).isEqualTo(logged);
  }

  @Test
  void aBodyTrickledInWithinTheIdleTimeoutGets408AtTwiceTheIdleTimeout() throws Exception {
    f.restart(Duration.ofSeconds(2));
    long logged = f.app.messageLog().size();
    // One byte every 300 ms: never idle for the 2 s timeout; the 100 bytes would take 30 s. The
    // answer comes with the first byte after the deadline (4 s), not after a second deadline spent
    // reading the rest.
    long start = System.nanoTime();
    String answer = SlowSender.trickles(f.uri("/"), messagesHead(100), Duration.ofMillis(300));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(answer).startsWith("HTTP/1.1 408").contains("did not arrive whole within 4 s");
    assertThat(answer.toLowerCase(Locale.ROOT)).contains("\r\nconnection: close\r\n");
    assertThat(tookMillis).isBetween(3_500L, 7_000L);
    assertThat(f.app.messageLog().size()).isEqualTo(logged);
    assertThat(f.get("/healthz", null).statusCode()).isEqualTo(200);
  }

  /** The head of a {@code POST /api/v1/messages} with the operator's token. */
  private String messagesHead(int contentLength) {
    return "POST /api/v1/messages HTTP/1.1\r\nHost: legio\r\nAuthorization: Bearer "
        + f.operator
        + "\r\nContent-Type: application/json\r\nContent-Length: "
        + contentLength
        + "\r\n";
  }

  @Test
  void gatewayAndTaskTokensAre403OutsideTheirRole() throws Exception {
    for (String[] route : OPERATOR_ONLY) {
      assertError(call(route[0], route[1], f.gateway), 403, "role gateway");
      assertError(call(route[0], route[1], f.task), 403, "role task");
    }
    assertError(
        f.post("/api/v1/channels/slack:9/messages", f.gateway, Map.of("text", "hi")),
        403,
        "source 'slack'");
    assertError(
        f.post("/api/v1/channels/telegram:9/messages", f.task, Map.of("text", "hi")),
        403,
        "role task");
    assertThat(f.app.messageLog().size()).isZero();
    assertThat(
            f.post("/api/v1/channels/telegram:9/messages", f.gateway, Map.of("text", "hi"))
                .statusCode())
        .isEqualTo(200);
    assertThat(
            f.post("/api/v1/channels/slack:9/messages", f.operator, Map.of("text", "hi"))
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void aRevokedTokenIsRefusedAtItsNextRequest() throws Exception {
    assertThat(f.get("/api/v1/status", f.operator).statusCode()).isEqualTo(200);
    // Another process (legio token revoke) rewrites the file.
    ApiTokens other = new ApiTokens(f.app.workspace().castra());
    assertThat(other.revoke("console")).isTrue();
    assertError(f.get("/api/v1/status", f.operator), 401, "unknown token");
  }

  @Test
  void tokensAreStoredHashedInAnOwnerOnlyFile() throws Exception {
    ApiTokens tokens = new ApiTokens(f.app.workspace().castra());
    String stored = Files.readString(tokens.file());
    assertThat(stored)
        .doesNotContain(f.operator, f.gateway, f.task, f.scraper)
        .contains(ApiTokens.sha256(f.operator));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokens.file())))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(tokens.file().getParent())))
        .isEqualTo("rwx------");
    assertThat(tokens.list())
        .extracting(ApiTokens.ApiToken::name)
        .containsExactly("console", "telegram-bot", "tasks", "prometheus");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> tokens.create("console", Role.OPERATOR, List.of()))
        .hasMessageContaining("exists");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> tokens.create("bot", Role.GATEWAY, List.of()))
        .hasMessageContaining("--sources");
  }
}
