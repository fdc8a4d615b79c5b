package dev.legio.app.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bare MCP client over HTTP for tests, on the JDK's HttpClient: it sends exactly what a test says
 * (bad bodies and headers included) and reads answers as JSON or as SSE events.
 */
final class McpHttpClient {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";

  /** One server-sent event. */
  record Event(String id, String retry, String data) {}

  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  final URI endpoint;
  final String token;

  McpHttpClient(URI endpoint, String token) {
    this.endpoint = endpoint;
    this.token = token;
  }

  HttpRequest.Builder request(String session) {
    HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return b;
  }

  HttpResponse<String> post(String body, String session, String... headers) throws Exception {
    HttpRequest.Builder b =
        request(session)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.setHeader(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> postBytes(byte[] body, String session) throws Exception {
    return http.send(
        request(session)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Initializes a session (initialize, then notifications/initialized); returns its id. */
  String session() throws Exception {
    HttpResponse<String> opened = post(INITIALIZE, null);
    if (opened.statusCode() != 200) {
      throw new AssertionError("initialize: " + opened.statusCode() + " " + opened.body());
    }
    String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
    HttpResponse<String> initialized =
        post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session);
    if (initialized.statusCode() != 202) {
      throw new AssertionError("initialized: " + initialized.statusCode());
    }
    return session;
  }

  /** The JSON-RPC message an answer carries: its JSON body, or the last SSE event's data. */
  static JsonNode message(HttpResponse<String> response) throws IOException {
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (type.startsWith("text/event-stream")) {
      List<Event> events = events(response.body());
      for (int i = events.size() - 1; i >= 0; i--) {
        if (!events.get(i).data().isBlank()) {
          return JSON.readTree(events.get(i).data());
        }
      }
      throw new AssertionError("no message in the event stream: " + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** Parses an SSE body into events (comments skipped). */
  static List<Event> events(String body) {
    List<Event> events = new ArrayList<>();
    for (String block : body.split("\n\n")) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (String line : block.split("\n")) {
        if (line.isEmpty() || line.startsWith(":")) {
          continue;
        }
        int colon = line.indexOf(':');
        String key = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1).stripLeading();
        fields.merge(key, value, (a, b) -> a + "\n" + b);
      }
      if (!fields.isEmpty()) {
        events.add(
            new Event(fields.get("id"), fields.get("retry"), fields.getOrDefault("data", "")));
      }
    }
    return events;
  }

  /**
   * A raw HTTP/1.1 POST that declares {@code declared} bytes of body but sends only {@code sent}
   * and waits: returns what the server answers within 10 s.
   */
  static String rawPostDeclaring(int port, String token, long declared, String sent)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      String head =
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
              + port
              + "\r\nAuthorization: Bearer "
              + token
              + "\r\nContent-Type: application/json\r\n"
              + "Accept: application/json, text/event-stream\r\nContent-Length: "
              + declared
              + "\r\n\r\n"
              + sent;
      socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      byte[] answer = new byte[4096];
      int n = in.read(answer);
      return n < 0 ? "" : new String(answer, 0, n, StandardCharsets.UTF_8);
    }
  }

  /**
   * A raw HTTP/1.1 POST, for headers the JDK client will not send ({@code Host}); returns the
   * status line and the body.
   */
  static String rawPost(int port, String host, String token, String body) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String head =
          "POST /mcp HTTP/1.1\r\nHost: "
              + host
              + "\r\nAuthorization: Bearer "
              + token
              + "\r\nContent-Type: application/json\r\n"
              + "Accept: application/json, text/event-stream\r\nContent-Length: "
              + bytes.length
              + "\r\nConnection: close\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
