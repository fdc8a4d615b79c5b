package dev.legio.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on a loopback port to a server (PostgreSQL, say), which a test can cut off and put
 * back: while it is cut, the connections through it are closed and new ones are closed as soon as
 * they are taken, as when the server is out of reach for a moment.
 */
public final class TcpProxy implements AutoCloseable {
  private final String host;
  private final int port;
  private final ServerSocket listener;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile boolean cut;
  private volatile boolean closed;

  /** A proxy to {@code host:port}, listening on a free loopback port. */
  public TcpProxy(String host, int port) {
    this.host = host;
    this.port = port;
    try {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread.ofVirtual().name("tcp-proxy").start(this::accept);
  }

  /** The port the proxy listens on. */
  public int port() {
    return listener.getLocalPort();
  }

  /** Closes every connection through the proxy and refuses new ones until {@link #restore}. */
  public void cut() {
    cut = true;
    for (Socket s : open) {
      closeQuietly(s);
    }
    open.clear();
  }

  /** Takes connections again. */
  public void restore() {
    cut = false;
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (cut) {
        closeQuietly(client);
        continue;
      }
      try {
        Socket server = new Socket();
        server.connect(new InetSocketAddress(host, port), 5_000);
        open.add(client);
        open.add(server);
        pipe(client, server);
        pipe(server, client);
      } catch (IOException e) {
        closeQuietly(client);
      }
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread.ofVirtual()
        .start(
            () -> {
              byte[] buffer = new byte[16_384];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed: close both
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            });
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(listener);
    cut();
  }

  private static void closeQuietly(ServerSocket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
