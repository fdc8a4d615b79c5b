package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jetty's own 400s that {@link JettyRefusalAdvice} explains beyond a path or a header's name, over
 * a raw socket (the JDK's client will not send them): Jetty's words first, then what to fix, and
 * the connection closed as Jetty leaves it. Those of a path and a header are in {@code
 * MalformedRequestsTest}.
 */
class JettyRefusalAdviceTest {
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
  void aConnectToAPathIsToldThatConnectIsNotServedAndWhichMethodsAre() throws Exception {
    for (String request :
        List.of(
            "CONNECT /api/v1/status HTTP/1.1\r\nHost: x\r\n\r\n",
            "CONNECT /api/v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "CONNECT / HTTP/1.0\r\n\r\n")) {
      String answer = RawHttp.untilClosed(f.uri("/"), request); // closed, as Jetty leaves it
      assertThat(answer).as(request).startsWith("HTTP/1.1 400");
      assertThat(ServerFixture.rawError(answer))
          .as(request)
          .startsWith("Bad Request: Bad Authority: ")
          .contains("a CONNECT (which names host:port, not a path) is not served here")
          .contains("send GET, HEAD, POST or DELETE with a path");
    }
    // An absolute URL whose port is not digits is refused in the same words, which say so too.
    String url = RawHttp.untilClosed(f.uri("/"), "GET http://x:abc HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(ServerFixture.rawError(url))
        .startsWith("Bad Request: Bad Authority: ")
        .contains("in an absolute URL, write the port in digits");
  }

  @Test
  void aConnectJettyRefusesItselfHasItsConnectionClosedAsEveryConnectDoes() throws Exception {
    for (String request :
        List.of(
            "CONNECT [::1]:80 HTTP/1.1\r\nHost: x\r\n\r\n",
            "CONNECT * HTTP/1.1\r\nHost: x\r\n\r\n")) {
      String answer = RawHttp.untilClosed(f.uri("/"), request); // not kept open for a tunnel
      assertThat(answer)
          .as(request)
          .startsWith("HTTP/1.1 400")
          .containsIgnoringCase("\r\nConnection: close\r\n");
      assertThat(ServerFixture.rawError(answer)).as(request).contains("Authority!=Host");
    }
  }

  @Test
  void aContentLengthThatIsNotOneNumberIsToldToSendTheLengthInDigits() throws Exception {
    String body = "{\"text\": \"@vorenus hi\"}";
    for (String length : List.of("abc", "-1", "2, 2")) {
      String answer =
          RawHttp.untilClosed(
              f.uri("/"),
              "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + f.operator
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + length
                  + "\r\n\r\n"
                  + body);
      assertThat(answer)
          .as(length)
          .startsWith("HTTP/1.1 400")
          .contains("\r\nConnection: close\r\n");
      assertThat(ServerFixture.rawError(answer))
          .as(length)
          .startsWith("Bad Request: Invalid Content-Length Value: ")
          .contains("send the body's length in bytes as digits only (0-9), once");
    }
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void anHttp11RequestWithoutHostIsToldToSendOne() throws Exception {
    String answer =
        RawHttp.untilClosed(
            f.uri("/"),
            "GET /api/v1/status HTTP/1.1\r\nAuthorization: Bearer " + f.operator + "\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 400").contains("\r\nConnection: close\r\n");
    assertThat(ServerFixture.rawError(answer))
        .startsWith("Bad Request: No Host: ")
        .contains("an HTTP/1.1 request must carry a Host header; send one");
    // HTTP/1.0 needs none: answered as before.
    String old =
        RawHttp.untilClosed(
            f.uri("/"),
            "GET /api/v1/status HTTP/1.0\r\nAuthorization: Bearer " + f.operator + "\r\n\r\n");
    assertThat(old).startsWith("HTTP/1.1 200");
  }
}
