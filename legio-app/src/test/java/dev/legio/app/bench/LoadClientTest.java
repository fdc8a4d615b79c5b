package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LoadClient} against a loopback server that answers each request with the next of the
 * answers it was given, byte for byte, and records the requests as they arrived.
 */
class LoadClientTest {
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private final List<String> requests = java.util.Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger connections = new AtomicInteger();
  private ServerSocket server;
  private Thread serving;

  private URI start() throws IOException {
    server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    serving =
        Thread.ofPlatform()
            .daemon()
            .start(
                () -> {
                  while (!server.isClosed()) {
                    try {
                      Socket s = server.accept();
                      connections.incrementAndGet();
                      Thread.ofPlatform().daemon().start(() -> serve(s));
                    } catch (IOException closed) {
                      return;
                    }
                  }
                });
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = socket.getInputStream();
      while (true) {
        String request = readRequest(in);
        if (request == null) {
          return;
        }
        requests.add(request);
        String answer = answers.poll(5, TimeUnit.SECONDS);
        if (answer == null || answer.equals("SILENCE")) {
          Thread.sleep(5_000);
          return;
        }
        socket.getOutputStream().write(answer.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        if (answer.contains("Connection: close")) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client went away
    }
  }

  /** The request's head and body, or null at the end of the connection. */
  private static String readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int c = in.read();
      if (c < 0) {
        return null;
      }
      head.write(c);
      matched = (c == "\r\n\r\n".charAt(matched)) ? matched + 1 : (c == '\r' ? 1 : 0);
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    int length = 0;
    for (String line : text.split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).strip());
      }
    }
    return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  private static String ok(String body, String... headers) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return "HTTP/1.1 200 OK\r\n"
        + String.join("", java.util.Arrays.stream(headers).map(h -> h + "\r\n").toList())
        + "Content-Length: "
        + bytes.length
        + "\r\n\r\n"
        + body;
  }

  @Test
  void sendsOneWellFormedRequestAndReadsTheWholeAnswerOnOneKeptAliveConnection() throws Exception {
    URI url = start();
    answers.add(ok("{\"reply\": \"Ave, Cæsar ⚔️\"}", "Server-Timing: engine;dur=1.5, api;dur=2"));
    answers.add(ok("{}", "Server-Timing: engine;dur=3"));
    try (LoadClient client = new LoadClient(url, Duration.ofSeconds(5), 1024)) {
      LoadClient.Answer first =
          client.post("/api/v1/messages", Map.of("Authorization", "Bearer t"), "{\"text\": \"æ\"}");
      LoadClient.Answer second = client.post("/api/v1/messages", Map.of(), "{}");

      assertThat(first.status()).isEqualTo(200);
      assertThat(first.body()).isEqualTo("{\"reply\": \"Ave, Cæsar ⚔️\"}");
      assertThat(first.header("server-timing")).isEqualTo("engine;dur=1.5, api;dur=2");
      assertThat(second.header("Server-Timing")).isEqualTo("engine;dur=3");
      assertThat(connections).as("kept alive").hasValue(1);
    }
    assertThat(requests.get(0))
        .startsWith("POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:" + url.getPort() + "\r\n")
        .contains("\r\nContent-Type: application/json\r\n")
        .contains("\r\nContent-Length: 14\r\n") // 13 characters; "æ" is two bytes in UTF-8
        .contains("\r\nAuthorization: Bearer t\r\n")
        .endsWith("\r\n\r\n{\"text\": \"æ\"}");
  }

  @Test
  void readsAChunkedAnswer() throws Exception {
    URI url = start();
    answers.add(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n");
    try (LoadClient client = new LoadClient(url, Duration.ofSeconds(5), 1024)) {
      assertThat(client.post("/", Map.of(), "{}").body()).isEqualTo("hello, world");
    }
  }

  @Test
  void anAnswerThatClosesTheConnectionIsReadAndTheNextRequestOpensANewOne() throws Exception {
    URI url = start();
    answers.add(ok("first", "Connection: close"));
    answers.add(ok("second"));
    try (LoadClient client = new LoadClient(url, Duration.ofSeconds(5), 1024)) {
      assertThat(client.post("/", Map.of(), "{}").body()).isEqualTo("first");
      assertThat(client.post("/", Map.of(), "{}").body()).isEqualTo("second");
    }
    assertThat(connections).hasValue(2);
  }

  @Test
  void aMalformedOrOversizeAnswerFailsAndTheNextRequestStartsOver() throws Exception {
    URI url = start();
    answers.add("HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n");
    answers.add(ok("x".repeat(2048)));
    answers.add("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n");
    answers.add("HTTP/1.1 200 OK\r\n\r\n");
    answers.add(ok("fine"));
    try (LoadClient client = new LoadClient(url, Duration.ofSeconds(5), 1024)) {
      for (String failure :
          List.of("status line", "2048 bytes", "malformed header", "without Content-Length")) {
        assertThatThrownBy(() -> client.post("/", Map.of(), "{}"))
            .isInstanceOf(IOException.class)
            .hasMessageContaining(failure);
      }
      assertThat(client.post("/", Map.of(), "{}").body()).isEqualTo("fine");
    }
    assertThat(connections).as("a new connection after each failure").hasValue(5);
  }

  @Test
  void aServerThatStopsAnsweringFailsTheRequestAfterTheStall() throws Exception {
    URI url = start();
    answers.add("SILENCE");
    try (LoadClient client = new LoadClient(url, Duration.ofMillis(300), 1024)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> client.post("/", Map.of(), "{}"))
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(250));
    }
  }

  @Test
  void onlyPlainHttpToAHostAndPortAndARealStallAreAccepted() {
    assertThatThrownBy(
            () -> new LoadClient(URI.create("https://example.org:443"), Duration.ofSeconds(1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("plain HTTP");
    assertThatThrownBy(() -> new LoadClient(URI.create("http://127.0.0.1:1"), Duration.ZERO, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stall");
  }
}
