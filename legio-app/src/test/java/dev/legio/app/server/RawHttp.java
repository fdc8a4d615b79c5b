package dev.legio.app.server;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A request sent as it is over a socket, for what the JDK's client will not send (a {@code CONNECT}
 * to a path, no {@code Host}, a malformed header).
 */
final class RawHttp {
  private RawHttp() {}

  /**
   * Sends {@code request} to the server at {@code base} and returns the answer once the server has
   * closed the connection; fails if it is still open 5 s after the answer began.
   */
  static String untilClosed(URI base, String request) throws Exception {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try {
        socket.getInputStream().transferTo(out);
      } catch (SocketTimeoutException e) {
        throw new AssertionError(
            "the connection was left open after: " + out.toString(StandardCharsets.UTF_8), e);
      }
      return out.toString(StandardCharsets.UTF_8);
    }
  }
}
