package dev.legio.app.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A loopback HTTP/1.1 proxy for tests that adds {@code Authorization: Bearer TOKEN} to every
 * request and passes everything else through untouched ({@code Host} and {@code Origin} included,
 * so DNS-rebinding checks see what the client sent). For clients that cannot send headers, such as
 * the MCP conformance suite 0.1.16. Requests are framed by {@code Content-Length} or chunked
 * encoding; responses are copied byte for byte.
 */
final class BearerProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final String token;
  private volatile int upstreamPort;

  BearerProxy(String token) throws IOException {
    this.token = token;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::acceptLoop, "bearer-proxy");
    accept.setDaemon(true);
    accept.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Where requests go (127.0.0.1:PORT); set before the first request. */
  void forwardTo(int port) {
    this.upstreamPort = port;
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Thread t = new Thread(() -> serve(client), "bearer-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client;
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      Thread back =
          new Thread(
              () -> {
                try {
                  upstream.getInputStream().transferTo(client.getOutputStream());
                } catch (IOException ignored) {
                  // either side closed
                } finally {
                  closeQuietly(client);
                }
              },
              "bearer-proxy-back");
      back.setDaemon(true);
      back.start();
      InputStream in = client.getInputStream();
      OutputStream out = upstream.getOutputStream();
      while (forwardOne(in, out)) {
        out.flush();
      }
    } catch (IOException ignored) {
      // the connection ended
    }
  }

  /** Copies one request, with the header added; false at the end of the connection. */
  private boolean forwardOne(InputStream in, OutputStream out) throws IOException {
    String head = readHead(in);
    if (head == null) {
      return false;
    }
    StringBuilder rewritten = new StringBuilder();
    long length = 0;
    boolean chunked = false;
    String[] lines = head.split("\r\n");
    rewritten.append(lines[0]).append("\r\n");
    rewritten.append("Authorization: Bearer ").append(token).append("\r\n");
    for (int i = 1; i < lines.length; i++) {
      String lower = lines[i].toLowerCase(Locale.ROOT);
      if (lower.startsWith("authorization:")) {
        continue;
      }
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lines[i].substring(15).strip());
      }
      if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunked = true;
      }
      rewritten.append(lines[i]).append("\r\n");
    }
    rewritten.append("\r\n");
    out.write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (chunked) {
      copyChunks(in, out);
    } else {
      copy(in, out, length);
    }
    return true;
  }

  private static void copyChunks(InputStream in, OutputStream out) throws IOException {
    while (true) {
      String sizeLine = readLine(in);
      out.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      int size = Integer.parseInt(sizeLine.split(";")[0].strip(), 16);
      if (size == 0) {
        String trailer;
        do {
          trailer = readLine(in);
          out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        } while (!trailer.isEmpty());
        return;
      }
      copy(in, out, size + 2L);
    }
  }

  private static void copy(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buffer = new byte[8192];
    while (n > 0) {
      int read = in.read(buffer, 0, (int) Math.min(buffer.length, n));
      if (read < 0) {
        throw new IOException("request body ended early");
      }
      out.write(buffer, 0, read);
      n -= read;
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.substring(0, text.length() - 4);
      }
    }
    return null;
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
