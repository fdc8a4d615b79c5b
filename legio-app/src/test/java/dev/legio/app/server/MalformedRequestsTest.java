package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.testing.LogCapture;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests that a careless or hostile client sends, each refused with the status it deserves and an
 * error that says what to fix, in the client's terms (no parser class names), with nothing logged
 * or dispatched; and the lenient cases that must still work (an optional body left out).
 */
class MalformedRequestsTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofMillis(300), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private HttpResponse<String> postJson(String path, String body) throws Exception {
    return f.postRaw(path, f.operator, "application/json", body);
  }

  @Test
  void headIsGetWithoutTheBodyWithTheSameAccessButNotForTheEventStream() throws Exception {
    HttpResponse<String> get = f.get("/api/v1/openapi.json", f.operator);
    HttpResponse<String> head = head("/api/v1/openapi.json", f.operator);
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    assertThat(head.headers().firstValueAsLong("Content-Length"))
        .hasValue(get.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    assertThat(head("/api/v1/status", f.operator).statusCode()).isEqualTo(200);

    assertThat(head("/api/v1/status", null).statusCode()).isEqualTo(401);
    HttpResponse<String> events = head("/api/v1/events", f.operator);
    assertThat(events.statusCode()).isEqualTo(405);
    assertThat(events.headers().firstValue("Allow")).hasValue("GET");
  }

  private HttpResponse<String> head(String path, String token) throws Exception {
    return f.http.send(
        f.request(path, token).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aBodyIsExactlyOneObjectWithEachKeyOnce() throws Exception {
    assertError(
        postJson("/api/v1/messages", "{\"text\": \"first\"}{\"text\": \"@vorenus second\"}"),
        400,
        "more follows the first JSON value");
    assertError(postJson("/api/v1/messages", "{\"text\": \"hi\"} trailing"), 400, "column");
    assertError(
        postJson("/api/v1/messages", "{\"text\": \"hi\", \"text\": \"ho\"}"),
        400,
        "Duplicate field 'text'");
    HttpResponse<String> cut = postJson("/api/v1/messages", "{\"text\": \"hi\"");
    assertError(cut, 400, "at line 1, column");
    String deep = "{\"a\": " + "[".repeat(1_001) + "]".repeat(1_001) + "}";
    HttpResponse<String> tooDeep = postJson("/api/v1/messages", deep);
    assertError(tooDeep, 400, "nesting depth");
    for (HttpResponse<String> r : List.of(cut, tooDeep)) {
      assertThat(ServerFixture.json(r).get("error").asText())
          .doesNotContain("Source", "`", "StreamRead", "com.fasterxml", "marker at");
    }
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void onlyUtf8JsonIsTakenAsJson() throws Exception {
    String body = "{\"text\": \"hi\"}";
    assertError(f.postRaw("/api/v1/messages", f.operator, "application/jsonx", body), 415, "JSON");
    assertError(
        f.postRaw("/api/v1/messages", f.operator, "application/json; charset=latin1", body),
        415,
        "UTF-8");
    assertThat(
            f.postRaw("/api/v1/messages", f.operator, "Application/JSON; Charset=\"UTF-8\"", body)
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void aBodyThatIsNotUtf8IsRefusedNotDecodedAsAnotherText() throws Exception {
    // Overlong forms ('/' and '<' in two bytes), an encoded surrogate pair (CESU-8) and a code
    // point above U+10FFFF are not UTF-8: never read as '/', '<' or an emoji.
    for (String bytes :
        List.of("C0 AF", "C0 BC", "E0 80 AF", "ED A0 BD ED B8 80", "F4 90 80 80", "E2 82")) {
      HttpResponse<String> r =
          postBytes(
              concat(
                  "{\"text\": \"@vorenus a".getBytes(StandardCharsets.UTF_8),
                  hex(bytes),
                  "\"}".getBytes(StandardCharsets.UTF_8)));
      assertError(r, 400, "not UTF-8");
      assertThat(ServerFixture.json(r).get("error").asText())
          .as(bytes)
          .contains("byte offset 20")
          .contains("0x" + bytes.substring(0, 2))
          .contains("send the body in UTF-8");
    }
    // UTF-16 and UTF-32, with or without a byte order mark: said so, not guessed.
    String body = "{\"text\": \"@vorenus hi\"}";
    for (java.nio.charset.Charset wide :
        List.of(
            StandardCharsets.UTF_16LE,
            StandardCharsets.UTF_16BE,
            StandardCharsets.UTF_16,
            java.nio.charset.Charset.forName("UTF-32LE"))) {
      assertError(postBytes(body.getBytes(wide)), 400, "UTF-16 or UTF-32");
    }
    assertThat(f.app.messageLog().size()).isZero();
    // UTF-8, with a byte order mark or without, is read as before.
    assertThat(postBytes(body.getBytes(StandardCharsets.UTF_8)).statusCode()).isEqualTo(200);
    assertThat(
            postBytes(concat(hex("EF BB BF"), body.getBytes(StandardCharsets.UTF_8))).statusCode())
        .isEqualTo(200);
    assertThat(
            postBytes(
                    "{\"text\": \"@vorenus \u00e9 \ud83d\ude00\"}".getBytes(StandardCharsets.UTF_8))
                .statusCode())
        .isEqualTo(200);
  }

  private HttpResponse<String> postBytes(byte[] body) throws Exception {
    return f.http.send(
        f.request("/api/v1/messages", f.operator)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] hex(String bytes) {
    String[] parts = bytes.split(" ");
    byte[] out = new byte[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = (byte) Integer.parseInt(parts[i], 16);
    }
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void aFieldOfAnotherTypeIsRefusedNotConverted() throws Exception {
    assertError(
        f.post(
            "/api/v1/tasks",
            f.operator,
            Map.of("session_key", 5, "agent", "vorenus", "text", "go")),
        400,
        "'session_key' must be a string");
    assertError(
        f.post("/api/v1/tasks", f.operator, Map.of("session_key", "k", "agent", 5, "text", "go")),
        400,
        "'agent' must be a string");
    assertError(
        f.post(
            "/api/v1/channels/telegram:1/messages",
            f.operator,
            Map.of("text", "hi", "user", Map.of("id", "42", "name", 5))),
        400,
        "'user.name' must be a string");
    assertError(
        postJson(
            "/api/v1/channels/telegram:1/messages",
            "{\"text\": \"hi\", \"user\": {\"id\": 1.5e300}}"),
        400,
        "'user.id' must be a string or a whole number");
    assertThat(f.app.messageLog().size()).isZero();
    // A platform's numeric user id is taken as it is written.
    HttpResponse<String> numeric =
        postJson(
            "/api/v1/channels/telegram:1/messages",
            "{\"text\": \"hi\", \"user\": {\"id\": 42, \"name\": \"Ada\"}}");
    assertThat(numeric.statusCode()).as(numeric.body()).isEqualTo(200);
    JsonNode seen =
        ServerFixture.json(f.get("/api/v1/history?viewer=telegram:1&limit=2", f.operator));
    assertThat(seen.at("/messages/0/text").asText()).isEqualTo("[from \"Ada\" (id \"42\")]\nhi");
  }

  @Test
  void rewindTakesWholeTurnsAndAnOptionalBodyMayBeLeftOut() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus one"));
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus two"));
    String id = sessionOf("vorenus");
    assertError(
        postJson("/api/v1/sessions/" + id + "/rewind", "{\"last\": 1.5}"),
        400,
        "a whole number of 1 or more");
    // No body at all, as `curl -X POST` sends it (no Content-Length, no Content-Type)...
    String answer =
        raw(
            "POST /api/v1/sessions/"
                + id
                + "/rewind HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + f.operator
                + "\r\nConnection: close\r\n\r\n",
            false);
    assertThat(answer).startsWith("HTTP/1.1 200").contains("\"turns_removed\":1");
    // ... or an empty one with a JSON type.
    HttpResponse<String> forked =
        f.postRaw("/api/v1/sessions/" + id + "/fork", f.operator, "application/json", "");
    assertThat(forked.statusCode()).as(forked.body()).isEqualTo(200);
  }

  @Test
  void numbersInTheQueryAreAsciiDigits() throws Exception {
    assertError(f.get("/api/v1/history?limit=%EF%BC%95", f.operator), 400, "'limit'");
    assertError(f.get("/api/v1/history?after=%D9%A1%D9%A0", f.operator), 400, "'after'");
    assertError(f.get("/api/v1/history?limit=+5", f.operator), 400, "'limit'");
    assertThat(f.get("/api/v1/history?limit=5", f.operator).statusCode()).isEqualTo(200);
  }

  @Test
  void aQueryParameterGivenTwiceIsRefusedNamingItOnEveryEndpointThatReadsOne() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus one"));
    String session = "/api/v1/sessions/" + sessionOf("vorenus");
    Map<String, String> twice = new java.util.LinkedHashMap<>();
    twice.put("/api/v1/history?limit=5&limit=500", "limit");
    twice.put("/api/v1/history?limit=5&limit=5", "limit"); // the same value too
    twice.put("/api/v1/history?limit=5&%6Cimit=5", "limit"); // percent-encoded name
    twice.put("/api/v1/history?limit=&limit=5", "limit"); // one of them empty
    twice.put("/api/v1/history?viewer=caesar&viewer=vorenus", "viewer");
    twice.put("/api/v1/history?after=1&before=9&after=2", "after");
    twice.put(session + "?limit=1&limit=2&limit=3", "limit");
    twice.put(session + "?before=1&before=2", "before");
    twice.put("/api/v1/usage?by=agent&by=model", "by");
    twice.put("/api/v1/usage?since=7d&since=30d", "since");
    twice.put("/api/v1/memoria/search?q=north&q=south", "q");
    twice.put("/api/v1/memoria/search?q=north&limit=1&limit=200", "limit");
    twice.put("/api/v1/tasks/sessions?session_key=a:1&session_key=b:2", "session_key");
    twice.put("/api/v1/events?after=1&after=2", "after");
    for (Map.Entry<String, String> e : twice.entrySet()) {
      HttpResponse<String> r = f.get(e.getKey(), f.operator);
      assertThat(r.statusCode()).as(e.getKey() + ": " + r.body()).isEqualTo(400);
      assertError(r, 400, "query parameter '" + e.getValue() + "' is given");
      assertThat(ServerFixture.json(r).get("error").asText()).contains("send it once");
    }
    assertError(f.get(session + "?limit=1&limit=2&limit=3", f.operator), 400, "is given 3 times");
    // Each once, or a parameter no endpoint reads given twice: answered as before.
    assertThat(f.get("/api/v1/history?limit=5&viewer=caesar", f.operator).statusCode())
        .isEqualTo(200);
    assertThat(f.get("/api/v1/history?limit=5&unused=1&unused=2", f.operator).statusCode())
        .isEqualTo(200);
    assertThat(f.get("/api/v1/status?x=1&x=2", f.operator).statusCode()).isEqualTo(200);
    assertThat(f.get(session + "?limit=1", f.operator).statusCode()).isEqualTo(200);
  }

  @Test
  void aLastEventIdHeaderGivenTwiceIsRefusedNamingItAsAQueryParameterIs() throws Exception {
    HttpResponse<InputStream> r =
        f.http.send(
            f.request("/api/v1/events", f.operator)
                .header("Last-Event-ID", "1")
                .header("Last-Event-ID", "5")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = r.body()) {
      assertThat(r.statusCode()).isEqualTo(400); // before reading what would be a stream
      assertThat(ServerFixture.JSON.readTree(body).get("error").asText())
          .contains("header 'Last-Event-ID' is given 2 times")
          .contains("send it once");
    }
  }

  @Test
  void aQueryOrPathThatIsNotUtf8PercentEncodedIs400NamingWhatToFix() throws Exception {
    assertError(f.get("/api/v1/history?limit=5&viewer=%ff", f.operator), 400, "'viewer'");
    assertThat(
            ServerFixture.json(f.get("/api/v1/history?viewer=caesar%C3", f.operator))
                .get("error")
                .asText())
        .contains("'viewer'")
        .contains("UTF-8, percent-encoded");
    String lone =
        raw(
            "GET /api/v1/history?viewer=50% HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + f.operator
                + "\r\nConnection: close\r\n\r\n",
            false);
    assertThat(lone).startsWith("HTTP/1.1 400");
    assertThat(ServerFixture.rawError(lone)).contains("'viewer'").contains("%25");
    HttpResponse<String> name = f.get("/api/v1/history?%ff=1", f.operator);
    assertError(name, 400, "UTF-8, percent-encoded");
    HttpResponse<String> path = f.get("/api/v1/sessions/%ff", f.operator);
    assertError(path, 400, "path");
    assertThat(ServerFixture.json(path).get("error").asText()).contains("UTF-8");
    // Well-formed UTF-8 is read as before.
    assertThat(f.get("/api/v1/history?viewer=caesar&limit=%35", f.operator).statusCode())
        .isEqualTo(200);
  }

  @Test
  void anErrorOfLegiosIsQuotedWholeNotCutAtEightyCharacters() throws Exception {
    HttpResponse<String> r = f.get("/api/v1/usage?since=99999999999d", f.operator);
    assertThat(r.statusCode()).isEqualTo(400);
    String error = ServerFixture.json(r).get("error").asText();
    assertThat(error).doesNotEndWith("…").hasSizeGreaterThan(100);
  }

  @Test
  void aClientThatBreaksOffItsBodyIsAQuietLineNotAStackTrace() throws Exception {
    try (LogCapture log = new LogCapture()) {
      raw(
          "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
              + f.operator
              + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"text\": \"hel",
          true);
      // The server notices the end of the connection while it reads the body.
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!log.text().contains("broke off") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(log.text()).contains("POST /api/v1/messages: the client broke off");
      assertThat(log.warningsAndErrors()).isEmpty();
    }
    assertThat(f.app.messageLog().size()).isZero();
  }

  /**
   * More clients than the API has threads, each trickling the body of a message (with a gateway's
   * token, as a viewer page's person holds one): every other request is still answered at once,
   * /healthz included, and each trickled body is still read and answered when it is whole. Their
   * bodies were read on the API's threads, so that until the bodies' deadline nothing else was.
   */
  @Test
  void clientsTricklingTheirBodiesHoldNoneOfTheApisThreads() throws Exception {
    URI base = f.uri("/");
    List<Socket> tricklers = new java.util.ArrayList<>();
    String body = "{\"text\": \"slow words\"}";
    try {
      for (int i = 0; i < ApiThreads.COUNT + 20; i++) {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(30_000);
        tricklers.add(socket);
        socket
            .getOutputStream()
            .write(
                ("POST /api/v1/channels/telegram:"
                        + i
                        + "/messages HTTP/1.1\r\nHost: x\r\n"
                        + "Authorization: Bearer "
                        + f.gateway
                        + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: "
                        + body.length()
                        + "\r\nConnection: close\r\n\r\n"
                        + body.substring(0, 3))
                    .getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
      }
      Thread.sleep(500); // every trickled request has been routed and is waiting for its body
      HttpClient quick = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      for (String path : List.of("/healthz", "/readyz")) {
        HttpResponse<String> answer =
            quick.send(
                HttpRequest.newBuilder(f.uri(path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(path).isEqualTo(200);
      }
      assertThat(
              f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo still here"))
                  .statusCode())
          .isEqualTo(200);
      // The rest of one body arrives: that request is answered as any other.
      Socket last = tricklers.get(tricklers.size() - 1);
      last.getOutputStream().write(body.substring(3).getBytes(StandardCharsets.UTF_8));
      last.getOutputStream().flush();
      String answer = new String(last.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 200").contains("\"reply\"");
    } finally {
      for (Socket socket : tricklers) {
        socket.close();
      }
    }
  }

  @Test
  void aMalformedChunkedBodyIsNotBlamedOnAContentLengthItDidNotSend() throws Exception {
    String answer =
        raw(
            "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + f.operator
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\nZZ\r\n{\"text\": \"hi\"}\r\n0\r\n\r\n",
            false);
    assertThat(answer)
        .startsWith("HTTP/1.1 400")
        .contains("chunk")
        .doesNotContain("Content-Length promised");
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void jettysOwnRefusalsSayWhatToFix() throws Exception {
    String answer =
        raw("GET /api/v1/sessions/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", false);
    assertThat(answer)
        .startsWith("HTTP/1.1 400")
        .contains("%-escape")
        .doesNotContain("Bad Request: Bad Request");
  }

  @Test
  void jettysRefusalsOfAnAmbiguousPathSayWhatToFix() throws Exception {
    Map<String, String> expected =
        Map.of(
            "/api/v1/memoria/edicta/a%2Fb", "cannot hold '/'",
            "/api/v1/memoria/edicta/%2e%2e", "without dot segments",
            "/api/v1/memoria//edicta", "remove the doubled '/'",
            "/api/v1/memoria/edicta/a%25b", "cannot hold '%'",
            "/api/v1/memoria/edicta/a%09b", "control character",
            "/api/v1/memoria/edicta/..;/x", "'..;'");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      String answer =
          raw(
              "GET "
                  + e.getKey()
                  + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + f.operator
                  + "\r\nConnection: close\r\n\r\n",
              false);
      assertThat(answer).as(e.getKey()).startsWith("HTTP/1.1 400");
      assertThat(ServerFixture.rawError(answer))
          .as(e.getKey())
          .startsWith("Bad Request: ")
          .contains(e.getValue());
    }
  }

  @Test
  void jettysRefusalsOfAHeaderSayWhatToFixAfterJettysOwnWords() throws Exception {
    String status = "GET /api/v1/status HTTP/1.1\r\n";
    // Each request is otherwise one the API takes: the operator's token, the connection closed.
    String close = "Authorization: Bearer " + f.operator + "\r\nConnection: close\r\n\r\n";
    String body = "{\"text\": \"@vorenus hi\"}";
    // Each request, with Jetty's words for it and what to fix.
    List<String[]> expected =
        List.of(
            new String[] {
              status + "Host: x\r\nX-Note: a\u0001b\r\n" + close,
              "Illegal character CNTL=0x1",
              "remove control characters from header values"
            },
            new String[] {
              status + "Host: x\r\nX-Note: a\u007fb\r\n" + close,
              "Illegal character CNTL=0x7f",
              "remove control characters from header values"
            },
            new String[] {
              "GET /api/v1/st\u0001atus HTTP/1.1\r\nHost: x\r\n" + close,
              "Illegal character CNTL=0x1",
              "in the URL, percent-encode them"
            },
            new String[] {
              status + "Host: x\r\nX Note: b\r\n" + close,
              "Illegal character SPACE",
              "remove it from the header's name"
            },
            new String[] {
              "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  + "\r\nContent-Length: "
                  + body.length()
                  + "\r\nContent-Length: "
                  + (body.length() - 1)
                  + "\r\n"
                  + close
                  + body,
              "Multiple Content-Lengths",
              "send one Content-Length"
            },
            new String[] {
              "GET http://a.example/api/v1/status HTTP/1.1\r\nHost: b.example\r\n" + close,
              "Authority!=Host",
              "send a Host header that matches the request's authority"
            },
            new String[] {
              status + "Host: x\r\nHost: y\r\n" + close,
              "Duplicate Host Header",
              "send one Host header"
            });
    for (String[] e : expected) {
      String answer = raw(e[0], false);
      assertThat(answer).as(e[1]).startsWith("HTTP/1.1 400");
      String error = ServerFixture.rawError(answer);
      assertThat(error).as(e[1]).startsWith("Bad Request: ").contains(e[1]).contains(e[2]);
      assertThat(error.indexOf(e[1])).as(e[1] + " first").isLessThan(error.indexOf(e[2]));
    }
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void twoAuthorizationHeadersAreRefused() throws Exception {
    String answer =
        raw(
            "GET /api/v1/status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + f.operator
                + "\r\nAuthorization: Bearer "
                + f.gateway
                + "\r\nConnection: close\r\n\r\n",
            false);
    assertThat(answer).startsWith("HTTP/1.1 400").contains("one Authorization header");
  }

  @Test
  void twoContentTypeHeadersAreRefusedWhicheverComesFirst() throws Exception {
    String body = "{\"text\": \"@vorenus hi\"}";
    for (String[] types :
        List.of(
            new String[] {"application/json", "text/plain"},
            new String[] {"application/json", "application/json; charset=utf-16"},
            new String[] {"application/json", "application/json"})) {
      String answer =
          raw(
              "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + f.operator
                  + "\r\nContent-Type: "
                  + types[0]
                  + "\r\nContent-Type: "
                  + types[1]
                  + "\r\nContent-Length: "
                  + body.length()
                  + "\r\nConnection: close\r\n\r\n"
                  + body,
              false);
      assertThat(answer).as(String.join(" + ", types)).startsWith("HTTP/1.1 400");
      assertThat(ServerFixture.rawError(answer))
          .contains("header 'Content-Type' is given 2 times")
          .contains("send it once");
    }
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void aPathParameterIsRefusedNotDroppedFromTheName() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo dig"));
    assertError(
        f.post("/api/v1/memoria/edicta/semi;colon", f.operator, Map.of("text", "hold")),
        400,
        "%3B");
    assertError(f.get("/api/v1/memoria/edicta/semi", f.operator), 404, "semi");
    assertError(f.delete("/api/v1/sessions/pullo;x", f.operator), 400, "path parameter");
    for (JsonNode agent : ServerFixture.json(f.get("/api/v1/status", f.operator)).get("agents")) {
      if (agent.get("owner").asText().equals("pullo")) {
        assertThat(agent.get("session").asText()).isEqualTo("active"); // not reset
      }
    }
    assertError(f.get("/api/v1/history;x", f.operator), 400, "';'");
    // Encoded, it is a character of the name, which the endpoint judges.
    assertError(
        f.post("/api/v1/memoria/edicta/semi%3Bcolon", f.operator, Map.of("text", "hold")),
        400,
        "not a valid name");
  }

  private String sessionOf(String owner) throws Exception {
    for (JsonNode s : ServerFixture.json(f.get("/api/v1/sessions", f.operator)).get("sessions")) {
      if (s.get("owner").asText().equals(owner)) {
        return s.get("session_id").asText();
      }
    }
    throw new AssertionError("no session of " + owner);
  }

  /**
   * Sends {@code request} as it is over a socket and returns what comes back until the server
   * closes; with {@code breakOff}, closes the connection right after sending instead.
   */
  private String raw(String request, boolean breakOff) throws Exception {
    URI base = f.uri("/");
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      if (breakOff) {
        return "";
      }
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toString(StandardCharsets.UTF_8);
    }
  }
}
