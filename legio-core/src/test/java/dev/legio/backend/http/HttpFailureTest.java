package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.Test;

class HttpFailureTest {
  @Test
  void aProblemIsSaidInWordsWithItsKindAndNoJavaClassName() {
    HttpFailure refused =
        HttpFailure.fromProblem(
            new IOException(
                "call failed", new ConnectException("Failed to connect to /127.0.0.1")));
    assertThat(refused.kind()).isEqualTo(HttpFailure.Kind.CONNECT);
    assertThat(refused.getMessage())
        .isEqualTo("connection refused (Failed to connect to /127.0.0.1)");

    assertThat(HttpFailure.fromProblem(new UnknownHostException("slack.example")).getMessage())
        .isEqualTo("unknown host (slack.example)");
    HttpFailure slow = HttpFailure.fromProblem(new HttpTimeoutException("request timed out"));
    assertThat(slow.kind()).isEqualTo(HttpFailure.Kind.TIMEOUT);
    assertThat(slow.getMessage()).isEqualTo("timed out (request timed out)");
    assertThat(HttpFailure.fromProblem(new IOException()).getMessage())
        .isEqualTo("input/output error");
    assertThat(HttpFailure.fromProblem(new IllegalStateException("odd")).getMessage())
        .isEqualTo("unexpected answer (odd)")
        .doesNotContain("Exception");
  }
}
