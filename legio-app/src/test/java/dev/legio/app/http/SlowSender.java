package dev.legio.app.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client that sends a request's head at once and its body slowly, over a raw socket, and reads
 * whatever the server answers until it closes the connection: the clients that {@link
 * StalledTransfer} is about.
 */
public final class SlowSender {
  private SlowSender() {}

  /**
   * Sends {@code head} (the request line and headers, each line ending in CRLF, without the blank
   * line) and {@code partOfBody}, then nothing more; returns the answer.
   */
  public static String stopsAfter(URI server, String head, String partOfBody) throws IOException {
    try (Socket socket = open(server)) {
      OutputStream out = socket.getOutputStream();
      out.write((head + "\r\n" + partOfBody).getBytes(StandardCharsets.UTF_8));
      out.flush();
      return readAll(socket);
    }
  }

  /**
   * Sends {@code head}, then the body one space at a time, every {@code every}, until the server
   * answers; returns the answer.
   */
  public static String trickles(URI server, String head, Duration every) throws IOException {
    try (Socket socket = open(server)) {
      OutputStream out = socket.getOutputStream();
      out.write((head + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      Thread trickle =
          Thread.ofPlatform()
              .daemon()
              .start(
                  () -> {
                    try {
                      while (true) {
                        out.write(' ');
                        out.flush();
                        Thread.sleep(every);
                      }
                    } catch (IOException | InterruptedException e) {
                      // the server answered and closed, or the test is over
                    }
                  });
      try {
        return readAll(socket);
      } finally {
        trickle.interrupt();
      }
    }
  }

  private static Socket open(URI server) throws IOException {
    Socket socket = new Socket(server.getHost(), server.getPort());
    socket.setSoTimeout(20_000);
    return socket;
  }

  private static String readAll(Socket socket) throws IOException {
    return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
