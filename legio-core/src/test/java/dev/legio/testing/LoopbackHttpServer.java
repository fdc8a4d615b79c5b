package dev.legio.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An HTTP/1.1 server on the loopback interface for testing clients of model APIs: it records every
 * request (method, path, headers, body) and answers each one with the next scripted {@link Reply}:
 * a whole body, a stream written piece by piece (SSE, NDJSON), a stream cut off in the middle (the
 * connection dropped without the end of the chunked body), or no answer at all until the client
 * gives up. It speaks HTTP on a raw socket so that faults are real faults on the wire.
 *
 * <p>With no reply scripted, a request gets a 500 saying so, which makes the test fail visibly.
 */
public final class LoopbackHttpServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A request as the server received it. Header names are lower case. */
  public record Request(String method, String path, Map<String, String> headers, String body) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** How the server answers one request. */
  public sealed interface Reply {
    /** A complete response with a Content-Length. */
    record Whole(int status, Map<String, String> headers, String body) implements Reply {}

    /** A chunked response, one chunk per piece; {@code cut}: the connection drops after them. */
    record Stream(String contentType, List<String> pieces, Duration pause, boolean cut)
        implements Reply {}

    /** Reads the request, then neither answers nor closes for {@code duration}. */
    record Stall(Duration duration) implements Reply {}

    static Reply json(int status, String body) {
      return new Whole(status, Map.of("Content-Type", "application/json"), body);
    }

    static Reply json(int status, String body, Map<String, String> headers) {
      Map<String, String> all = new LinkedHashMap<>(headers);
      all.put("Content-Type", "application/json");
      return new Whole(status, all, body);
    }

    static Reply stream(String contentType, List<String> pieces) {
      return new Stream(contentType, pieces, Duration.ZERO, false);
    }

    static Reply cut(String contentType, List<String> pieces) {
      return new Stream(contentType, pieces, Duration.ZERO, true);
    }

    static Reply stall(Duration duration) {
      return new Stall(duration);
    }
  }

  private final ServerSocket socket;
  private final BlockingQueue<Reply> script = new LinkedBlockingQueue<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final Thread acceptor;
  private volatile boolean closed;

  private LoopbackHttpServer() throws IOException {
    socket = new ServerSocket();
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    acceptor = Thread.ofVirtual().name("loopback-http").start(this::acceptLoop);
  }

  public static LoopbackHttpServer start() {
    try {
      return new LoopbackHttpServer();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  public int port() {
    return socket.getLocalPort();
  }

  /** Queues replies for the next requests, in order. */
  public LoopbackHttpServer enqueue(Reply... replies) {
    script.addAll(List.of(replies));
    return this;
  }

  /** Every request received so far, in order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /** Replies not used yet. */
  public int pendingReplies() {
    return script.size();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = socket.accept();
        open.add(client);
        Thread.ofVirtual().start(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      while (!closed) {
        Request request = readRequest(in);
        if (request == null) {
          return;
        }
        requests.add(request);
        Reply reply = script.poll();
        if (reply == null) {
          reply = Reply.json(500, "{\"error\":\"no reply scripted for this request\"}");
        }
        if (!answer(reply, out)) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client went away, or the server is closing
    } finally {
      open.remove(client);
    }
  }

  /** Writes the reply; false when the connection must be dropped afterwards. */
  private static boolean answer(Reply reply, OutputStream out)
      throws IOException, InterruptedException {
    switch (reply) {
      case Reply.Whole w -> {
        byte[] body = w.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 " + w.status() + " X\r\n");
        w.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return true;
      }
      case Reply.Stream s -> {
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: "
                    + s.contentType()
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        for (String piece : s.pieces()) {
          byte[] bytes = piece.getBytes(StandardCharsets.UTF_8);
          out.write(
              (Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
          out.write(bytes);
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          if (!s.pause().isZero()) {
            Thread.sleep(s.pause().toMillis());
          }
        }
        if (s.cut()) {
          return false;
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return true;
      }
      case Reply.Stall st -> {
        Thread.sleep(st.duration().toMillis());
        return false;
      }
    }
  }

  private static Request readRequest(InputStream in) throws IOException {
    String requestLine = readLine(in);
    if (requestLine == null || requestLine.isEmpty()) {
      return null;
    }
    String[] parts = requestLine.split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    String line;
    while ((line = readLine(in)) != null && !line.isEmpty()) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).strip());
    }
    byte[] body;
    if (headers.containsKey("content-length")) {
      body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      while (true) {
        int size = Integer.parseInt(readLine(in).split(";")[0].strip(), 16);
        if (size == 0) {
          readLine(in);
          break;
        }
        all.write(in.readNBytes(size));
        readLine(in);
      }
      body = all.toByteArray();
    } else {
      body = new byte[0];
    }
    return new Request(parts[0], parts[1], headers, new String(body, StandardCharsets.UTF_8));
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      }
      line.write(c);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
  }

  /** A port on the loopback interface where nothing listens (connection refused). */
  public static int closedPort() {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing
    }
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }
    acceptor.interrupt();
  }
}
