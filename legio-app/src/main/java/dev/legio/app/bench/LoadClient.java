package dev.legio.app.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The load generator's HTTP/1.1 client: one kept-alive connection to one server, one request at a
 * time, sent and read on the calling thread, so that a benchmark's clients cost the cores they
 * share with the server as little as they can: what a client spends on its own answer is counted as
 * the API's overhead, and its threads queue with the server's for the cores (docs/BENCHMARKS.md
 * compares it with OkHttp against the same server). Hand-written for that reason only.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A request goes out in one write: its head and its body.
 *   <li>An answer is read whole before {@link #post} returns: the status line, the headers, and a
 *       body of {@code Content-Length} bytes or in chunks; a body over {@code maxBodyBytes}, a
 *       malformed status line or header, or a connection closed mid-answer is an {@link
 *       IOException}.
 *   <li>After a failure, or an answer that says {@code Connection: close}, the connection is
 *       closed; the next request opens a new one.
 *   <li>A read that waits longer than {@code stall} for the next byte fails (the socket's own
 *       timeout: no timer thread, no lock shared with other clients).
 *   <li>Not a general client: plain HTTP to a loopback or known host, no redirects, proxies,
 *       compression or TLS (a benchmark of Legio's API needs none of them).
 * </ul>
 */
final class LoadClient implements Closeable {
  /** A whole answer: its status, its headers (names in lower case) and its body as text. */
  record Answer(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }
  }

  private static final int MAX_LINE = 16 * 1024;

  private final InetSocketAddress address;
  private final String hostHeader;
  private final int stallMillis;
  private final int maxBodyBytes;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  LoadClient(URI server, Duration stall, int maxBodyBytes) {
    if (!"http".equals(server.getScheme()) || server.getPort() < 0) {
      throw new IllegalArgumentException(
          "the load client speaks plain HTTP to a host and port, got " + server);
    }
    if (stall.isNegative() || stall.isZero() || stall.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("stall must be from 1 ms to 24 days, got " + stall);
    }
    this.address = new InetSocketAddress(server.getHost(), server.getPort());
    this.hostHeader = server.getHost() + ":" + server.getPort();
    this.stallMillis = (int) stall.toMillis();
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * Sends {@code POST path} with {@code headers} and a JSON {@code body}, and reads the whole
   * answer.
   */
  Answer post(String path, Map<String, String> headers, String body) throws IOException {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(256);
    head.append("POST ").append(path).append(" HTTP/1.1\r\nHost: ").append(hostHeader);
    head.append("\r\nContent-Type: application/json\r\nContent-Length: ").append(content.length);
    headers.forEach((name, value) -> head.append("\r\n").append(name).append(": ").append(value));
    head.append("\r\n\r\n");
    byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] request = new byte[start.length + content.length];
    System.arraycopy(start, 0, request, 0, start.length);
    System.arraycopy(content, 0, request, start.length, content.length);
    try {
      connect();
      out.write(request);
      out.flush();
      Answer answer = read();
      if (answer.header("connection").equalsIgnoreCase("close")) {
        close();
      }
      return answer;
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void connect() throws IOException {
    if (socket != null) {
      return;
    }
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(address, stallMillis);
      s.setSoTimeout(stallMillis);
      in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
      out = s.getOutputStream();
      socket = s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private Answer read() throws IOException {
    String statusLine = line();
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || parts[1].length() != 3) {
      throw new IOException("not an HTTP/1.1 status line: " + statusLine);
    }
    int status;
    try {
      status = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP/1.1 status line: " + statusLine, e);
    }
    Map<String, String> headers = new HashMap<>();
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      if (colon <= 0) {
        throw new IOException("malformed header line: " + header);
      }
      headers.merge(
          header.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          header.substring(colon + 1).strip(),
          (a, b) -> a + ", " + b);
    }
    byte[] body;
    if (headers
        .getOrDefault("transfer-encoding", "")
        .toLowerCase(Locale.ROOT)
        .contains("chunked")) {
      body = chunked();
    } else if (headers.containsKey("content-length")) {
      body = exactly(length(headers.get("content-length")));
    } else if (status == 204 || status == 304) {
      body = new byte[0];
    } else {
      throw new IOException("an answer without Content-Length or chunks (status " + status + ")");
    }
    return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private byte[] chunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = line();
      int semicolon = sizeLine.indexOf(';');
      String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip();
      int size;
      try {
        size = Integer.parseInt(hex, 16);
      } catch (NumberFormatException e) {
        throw new IOException("malformed chunk size: " + sizeLine, e);
      }
      if (size < 0 || body.size() + (long) size > maxBodyBytes) {
        throw new IOException("an answer over " + maxBodyBytes + " bytes");
      }
      if (size == 0) {
        for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
          // trailers: none that the bench reads
        }
        return body.toByteArray();
      }
      body.write(exactly(size));
      if (!line().isEmpty()) {
        throw new IOException("a chunk longer than its size");
      }
    }
  }

  private int length(String value) throws IOException {
    long length;
    try {
      length = Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new IOException("malformed Content-Length: " + value, e);
    }
    if (length < 0 || length > maxBodyBytes) {
      throw new IOException("an answer of " + length + " bytes (at most " + maxBodyBytes + ")");
    }
    return (int) length;
  }

  private byte[] exactly(int length) throws IOException {
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length) {
      throw new EOFException("the connection closed " + (length - bytes.length) + " bytes short");
    }
    return bytes;
  }

  /** One line of the head, without its CR LF (ISO-8859-1, as HTTP/1.1's head is). */
  private String line() throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new EOFException("the connection closed mid-answer");
      }
      if (c == '\n') {
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r'
            ? line.substring(0, end - 1)
            : line.toString();
      }
      if (line.length() >= MAX_LINE) {
        throw new IOException("a header line over " + MAX_LINE + " bytes");
      }
      line.append((char) c);
    }
  }

  @Override
  public void close() {
    Socket s = socket;
    socket = null;
    in = null;
    out = null;
    if (s != null) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing: nothing left to read or lose
      }
    }
  }
}
