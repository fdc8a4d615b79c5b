package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.http.HeaderText;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors that quote a request header sent in UTF-8 ({@code Content-Type}, its charset, {@code
 * Last-Event-ID}) quote it as the client wrote it, not as the mojibake of its bytes read one by one
 * ({@link HeaderText}); raw HTTP, since the JDK's client sends only ASCII headers.
 */
class HeaderQuotingApiTest {
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

  private String post(String contentType) throws Exception {
    String body = "{\"text\": \"@vorenus scout\"}";
    return f.raw(
        "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + f.operator
            + "\r\nContent-Type: "
            + contentType
            + "\r\nContent-Length: "
            + body.length()
            + "\r\nConnection: close\r\n\r\n"
            + body);
  }

  @Test
  void aContentTypeInUtf8IsQuotedAsWritten() throws Exception {
    String answer = post("текст/json");

    assertThat(answer).startsWith("HTTP/1.1 415");
    assertThat(ServerFixture.rawError(answer)).contains("(got 'текст/json')").doesNotContain("Ð");
  }

  @Test
  void aCharsetInUtf8IsQuotedAsWritten() throws Exception {
    String answer = post("application/json; charset=кои8");

    assertThat(answer).startsWith("HTTP/1.1 415");
    assertThat(ServerFixture.rawError(answer)).contains("the charset 'кои8'").doesNotContain("Ð");
  }

  @Test
  void aLastEventIdInUtf8IsQuotedAsWritten() throws Exception {
    String answer =
        f.raw(
            "GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + f.operator
                + "\r\nLast-Event-ID: пять\r\nConnection: close\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400");
    assertThat(ServerFixture.rawError(answer)).contains("got 'пять'").doesNotContain("Ð");
  }
}
