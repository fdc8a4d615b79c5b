package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code Idempotency-Key} header of {@code POST /api/v1/messages} and {@code POST
 * /api/v1/channels/{channel}/messages} through real HTTP: a request sent again with its key gets
 * the first answers and runs no second turn.
 */
class IdempotencyKeyApiTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofSeconds(30), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private HttpResponse<String> post(String path, String token, String key, Map<String, ?> body)
      throws Exception {
    HttpRequest.Builder b =
        f.request(path, token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(ServerFixture.JSON.writeValueAsString(body)));
    if (key != null) {
      b.header("Idempotency-Key", key);
    }
    return f.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<String> logged() {
    return f.app.messageLog().history(100).stream().map(m -> m.sender()).toList();
  }

  @Test
  void aChannelsMessageSentAgainWithItsKeyGetsTheSameAnswerAndRunsNoSecondTurn() throws Exception {
    Map<String, Object> body = Map.of("text", "hello", "user", Map.of("id", "7", "name", "Ada"));
    HttpResponse<String> first =
        post("/api/v1/channels/telegram:5/messages", f.gateway, "k-1", body);
    HttpResponse<String> again =
        post("/api/v1/channels/telegram:5/messages", f.gateway, "\"k-1\"", body);

    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    JsonNode a = ServerFixture.json(first);
    JsonNode b = ServerFixture.json(again);
    assertThat(b.at("/request/id")).isEqualTo(a.at("/request/id"));
    assertThat(b.at("/reply/id")).isEqualTo(a.at("/reply/id"));
    assertThat(b.at("/reply/text")).isEqualTo(a.at("/reply/text"));
    assertThat(logged()).containsExactly("telegram:5", "legatus");
    assertThat(f.turnThreads).hasSize(1);

    // Another token's same key is another request.
    HttpResponse<String> other =
        post("/api/v1/channels/telegram:5/messages", f.operator, "k-1", body);
    assertThat(ServerFixture.json(other).at("/request/id")).isNotEqualTo(a.at("/request/id"));
    assertThat(f.turnThreads).hasSize(2);
  }

  @Test
  void caesarsMessageSentAgainWithItsKeyGetsEveryAgentsFirstAnswer() throws Exception {
    Map<String, Object> body = Map.of("text", "@vorenus @pullo scout");
    JsonNode a = ServerFixture.json(post("/api/v1/messages", f.operator, "7f3c", body));
    JsonNode b = ServerFixture.json(post("/api/v1/messages", f.operator, "7f3c", body));

    assertThat(b.at("/request/id")).isEqualTo(a.at("/request/id"));
    assertThat(b.get("replies")).isEqualTo(a.get("replies"));
    assertThat(logged()).containsExactlyInAnyOrder("caesar", "vorenus", "pullo");
    assertThat(f.turnThreads).hasSize(2);
  }

  @Test
  void aKeySentAgainWithAnotherTextIs422AndNothingIsLogged() throws Exception {
    post("/api/v1/messages", f.operator, "k-2", Map.of("text", "@vorenus scout"));

    HttpResponse<String> reused =
        post("/api/v1/messages", f.operator, "k-2", Map.of("text", "@vorenus retreat"));

    assertThat(reused.statusCode()).as(reused.body()).isEqualTo(422);
    assertThat(ServerFixture.json(reused).get("error").asText())
        .startsWith("Idempotency-Key: ")
        .contains("a new message needs a new key");
    assertThat(logged()).containsExactly("caesar", "vorenus");
  }

  @Test
  void aStreamedMessageWhoseKeyWasSentWithAnotherTextIs422NotA200Stream() throws Exception {
    post("/api/v1/messages", f.operator, "k-3", Map.of("text", "@vorenus scout"));

    HttpResponse<String> reused =
        f.http.send(
            f.request("/api/v1/messages", f.operator)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .header("Idempotency-Key", "k-3")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus retreat\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(reused.statusCode()).as(reused.body()).isEqualTo(422);
    assertThat(reused.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(ServerFixture.json(reused).get("error").asText())
        .startsWith("Idempotency-Key: ")
        .contains("a new message needs a new key");
    assertThat(logged()).containsExactly("caesar", "vorenus");
  }

  @Test
  void aKeyThatIsNoneIs400NamingTheHeaderAndNothingIsLogged() throws Exception {
    for (String bad : List.of("two words", "x".repeat(201), "\"\"", "a\tb")) {
      HttpResponse<String> refused =
          post("/api/v1/messages", f.operator, bad, Map.of("text", "@vorenus scout"));
      assertThat(refused.statusCode()).as(bad).isEqualTo(400);
      assertThat(ServerFixture.json(refused).get("error").asText())
          .contains("header Idempotency-Key")
          .contains("printable ASCII characters without spaces");
    }
    assertThat(logged()).isEmpty();
  }

  @Test
  void aKeyOfNonAsciiCharactersIs400ShowingItAsSentNotGarbled() throws Exception {
    String body = "{\"text\": \"@vorenus scout\"}";
    String answer =
        f.raw(
            "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + f.operator
                + "\r\nContent-Type: application/json\r\nIdempotency-Key: ключ-1\r\n"
                + "Content-Length: "
                + body.length()
                + "\r\nConnection: close\r\n\r\n"
                + body);

    assertThat(answer).startsWith("HTTP/1.1 400");
    assertThat(ServerFixture.rawError(answer))
        .contains("header Idempotency-Key 'ключ-1'")
        .contains("printable ASCII characters without spaces")
        .doesNotContain("Ð");
    assertThat(logged()).isEmpty();
  }

  @Test
  void theHeaderSentTwiceIs400AndNothingIsLogged() throws Exception {
    HttpResponse<String> refused =
        f.http.send(
            f.request("/api/v1/messages", f.operator)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", "k-a")
                .header("Idempotency-Key", "k-b")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus scout\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(ServerFixture.json(refused).get("error").asText())
        .contains("header Idempotency-Key is sent more than once");
    assertThat(logged()).isEmpty();
  }

  @Test
  void aTokenRevokedAndMadeAgainUnderItsNameDoesNotInheritItsKeys() throws Exception {
    ApiTokens tokens = new ApiTokens(f.app.workspace().castra());
    String first = tokens.create("client", Role.OPERATOR, List.of()).secret();
    Map<String, Object> body = Map.of("text", "@vorenus scout");
    JsonNode a = ServerFixture.json(post("/api/v1/messages", first, "k-9", body));
    assertThat(tokens.revoke("client")).isTrue();
    String second = tokens.create("client", Role.OPERATOR, List.of()).secret();

    HttpResponse<String> other =
        post("/api/v1/messages", second, "k-9", Map.of("text", "@vorenus retreat"));

    assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
    assertThat(ServerFixture.json(other).at("/request/id")).isNotEqualTo(a.at("/request/id"));
    assertThat(logged()).containsExactly("caesar", "vorenus", "caesar", "vorenus");
  }

  @Test
  void aMessageSentAgainWhileItsFirstTurnRunsGetsTheFirstAnswerWhenItEnds() throws Exception {
    Map<String, Object> body = Map.of("text", "@vorenus #hold the ford");
    CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> send(body));
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<HttpResponse<String>> again = CompletableFuture.supplyAsync(() -> send(body));
    Thread.sleep(300); // the second send waits behind the first's turn
    assertThat(again).isNotDone();
    f.release();

    JsonNode a = ServerFixture.json(first.get(30, TimeUnit.SECONDS));
    JsonNode b = ServerFixture.json(again.get(30, TimeUnit.SECONDS));
    assertThat(b.at("/replies/0/id")).isEqualTo(a.at("/replies/0/id"));
    assertThat(b.at("/replies/0/error").asBoolean()).isFalse();
    assertThat(f.turnThreads).hasSize(1);
    assertThat(logged()).containsExactly("caesar", "vorenus");
  }

  private HttpResponse<String> send(Map<String, Object> body) {
    try {
      return post("/api/v1/messages", f.operator, "held-1", body);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
