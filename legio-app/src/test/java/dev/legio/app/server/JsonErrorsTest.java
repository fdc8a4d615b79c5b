package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each of {@link JsonErrors}' rules on a refusal Jetty makes itself, over a raw socket (the JDK's
 * client would not send these requests): the status's reason, then what its rule says.
 */
class JsonErrorsTest {
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

  @Test
  void aVersionNotSpokenIs505NamingTheVersionsToSend() throws Exception {
    String answer = untilClosed("GET /healthz HTTP/1.2\r\nHost: x\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 505");
    assertThat(ServerFixture.rawError(answer))
        .isEqualTo(
            "HTTP Version Not Supported: send HTTP/1.1 (or HTTP/1.0): this server speaks no other"
                + " version");
  }

  @Test
  void aRefusalThatSaysNoMoreThanItsStatusIsFollowedByWhatToFixForThatStatus() throws Exception {
    String longUrl =
        untilClosed("GET /healthz?" + "a".repeat(9_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(longUrl).startsWith("HTTP/1.1 414");
    assertThat(ServerFixture.rawError(longUrl))
        .isEqualTo("URI Too Long: the URL is too long; send long values in a JSON body");

    String bigHeader =
        untilClosed(
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
    assertThat(bigHeader).startsWith("HTTP/1.1 431");
    assertThat(ServerFixture.rawError(bigHeader))
        .isEqualTo(
            "Request Header Fields Too Large: the request's headers are too large; send fewer or"
                + " shorter headers");

    String missing =
        untilClosed("GET /console/missing.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assertThat(missing).startsWith("HTTP/1.1 404");
    assertThat(ServerFixture.rawError(missing))
        .isEqualTo(
            "Not Found: nothing is served at this path (the console is at /, the API under"
                + " /api/v1: GET /api/v1/openapi.json lists it)");

    // A status without advice of its own.
    String expectation = untilClosed("GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n");
    assertThat(expectation).startsWith("HTTP/1.1 417");
    assertThat(ServerFixture.rawError(expectation))
        .isEqualTo("Expectation Failed: the server could not take this request as sent");
  }

  @Test
  void jettysWordsWithoutAdviceAreGivenAsTheyAre() throws Exception {
    String answer =
        untilClosed("POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 400");
    assertThat(ServerFixture.rawError(answer))
        .isEqualTo("Bad Request: Bad Transfer-Encoding, chunked not last");
  }

  private String untilClosed(String request) throws Exception {
    return RawHttp.untilClosed(f.uri("/"), request);
  }
}
