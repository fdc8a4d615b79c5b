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
}
