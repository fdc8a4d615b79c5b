package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.LogCapture;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a request says of its body's encoding and of the answer it takes, over real HTTP: a body in
 * an encoding the server does not decode is 415 naming it; the Accept header is weighed as RFC 9110
 * says (q=0 is "not acceptable", wildcards, the most specific range), and one that takes none of an
 * endpoint's types is 406 naming them; in both cases nothing is dispatched or logged.
 */
class ContentNegotiationTest {
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

  private HttpResponse<String> postEncoded(String encoding, byte[] body) throws Exception {
    return f.http.send(
        f.request("/api/v1/messages", f.operator)
            .header("Content-Type", "application/json")
            .header("Content-Encoding", encoding)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aCompressedBodyIs415NamingItsEncodingNotAParseError() throws Exception {
    byte[] json = "{\"text\": \"@vorenus hello\"}".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
      gzip.write(json);
    }
    try (LogCapture log = new LogCapture()) {
      HttpResponse<String> gzip = postEncoded("gzip", gzipped.toByteArray());
      assertError(gzip, 415, "Content-Encoding: gzip");
      assertThat(ServerFixture.json(gzip).get("error").asText())
          .contains("send the body uncompressed")
          .doesNotContain("Illegal character");
      assertThat(gzip.headers().firstValue("Accept-Encoding")).hasValue("identity");
      assertError(postEncoded("identity, br", json), 415, "Content-Encoding: br");
      assertThat(log.warningsAndErrors()).isEmpty();
    }
    assertThat(f.app.messageLog().size()).isZero();

    HttpResponse<String> identity = postEncoded("identity", json);
    assertThat(identity.statusCode()).as(identity.body()).isEqualTo(200);
  }

  private HttpResponse<String> message(String accept, String text) throws Exception {
    HttpRequest.Builder b =
        f.request("/api/v1/messages", f.operator).header("Content-Type", "application/json");
    if (accept != null) {
      b.header("Accept", accept);
    }
    return f.http.send(
        b.POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"" + text + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String typeOf(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.headers().firstValue("Content-Type").orElse("").replaceAll(";.*", "");
  }

  @Test
  void aMessageStreamsOnlyWhenTheAcceptHeaderWeighsTheStreamHighest() throws Exception {
    try (LogCapture log = new LogCapture()) {
      HttpResponse<String> none = message("text/event-stream;q=0", "@vorenus refused");
      assertError(none, 406, "POST /api/v1/messages answers application/json or text/event-stream");
      assertThat(ServerFixture.json(none).get("error").asText())
          .contains("send Accept: application/json or text/event-stream");
      assertError(message("application/xml", "@vorenus refused"), 406, "application/xml");
      assertThat(log.warningsAndErrors()).isEmpty();
    }
    assertThat(f.app.messageLog().size()).as("nothing dispatched").isZero();

    assertThat(typeOf(message("*/*, text/event-stream;q=0", "@vorenus one")))
        .isEqualTo("application/json");
    assertThat(typeOf(message("text/event-stream;q=0.1, application/json", "@vorenus two")))
        .isEqualTo("application/json");
    assertThat(typeOf(message("application/json;q=0.5, text/event-stream", "@vorenus three")))
        .isEqualTo("text/event-stream");
    assertThat(typeOf(message("text/*", "@vorenus four"))).isEqualTo("text/event-stream");
    assertThat(typeOf(message("TEXT/Event-Stream", "@vorenus five")))
        .isEqualTo("text/event-stream");
    // Ordinary clients, as before: curl's */*, no Accept at all, a browser's list.
    assertThat(typeOf(message("*/*", "@vorenus six"))).isEqualTo("application/json");
    assertThat(typeOf(message(null, "@vorenus seven"))).isEqualTo("application/json");
    assertThat(
            typeOf(
                message(
                    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                    "@vorenus eight")))
        .isEqualTo("application/json");
  }

  @Test
  void anAcceptHeaderWithABareSemicolonIsWeighedNotA500() throws Exception {
    try (LogCapture log = new LogCapture()) {
      // A range that is only ';' is skipped, as any range that cannot be read: the rest is weighed.
      assertThat(typeOf(message(";, text/event-stream", "@vorenus one")))
          .isEqualTo("text/event-stream");
      assertThat(typeOf(message("application/json, ;;", "@vorenus two")))
          .isEqualTo("application/json");
      // Nothing readable: 406 naming what the endpoint answers, before anything is done.
      assertError(message(";", "@vorenus refused"), 406, "send Accept: application/json");
      assertError(
          f.http.send(
              f.request("/api/v1/status", f.operator).header("Accept", ";;;,,,").GET().build(),
              HttpResponse.BodyHandlers.ofString()),
          406,
          "send Accept: application/json");
      assertThat(log.warningsAndErrors()).isEmpty();
    }
    assertThat(f.app.messageLog().size()).isEqualTo(4); // two requests, two replies
  }

  @Test
  void theEventStreamIs406ForAnAcceptThatDoesNotTakeIt() throws Exception {
    for (String accept : java.util.List.of("application/json", "text/event-stream;q=0")) {
      HttpResponse<java.io.InputStream> r =
          f.http.send(
              f.request("/api/v1/events", f.operator).header("Accept", accept).GET().build(),
              HttpResponse.BodyHandlers.ofInputStream());
      try (java.io.InputStream body = r.body()) {
        assertThat(r.statusCode()).as(accept).isEqualTo(406); // before reading a stream's body
        assertThat(ServerFixture.JSON.readTree(body).get("error").asText())
            .contains("GET /api/v1/events answers text/event-stream")
            .contains("send Accept: text/event-stream");
      }
    }
    for (String accept : java.util.Arrays.asList("*/*", null)) {
      HttpRequest.Builder b = f.request("/api/v1/events", f.operator);
      if (accept != null) {
        b.header("Accept", accept);
      }
      try (SseClient events = SseClient.open(f, b.timeout(Duration.ofMinutes(1)).GET().build())) {
        assertThat(events.response.statusCode()).isEqualTo(200);
        assertThat(events.next(10).name()).isEqualTo("ready");
      }
    }
  }
}
