package dev.legio.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on loopback that forwards to one address until {@link #freeze}: then it forwards
 * nothing more either way and closes nothing, as a lost network or a stuck middlebox does (the
 * connections stay open, no byte arrives). {@link #thaw} forwards again.
 */
public final class FreezingTcpProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final String host;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean frozen;

  public FreezingTcpProxy(String host, int port) throws IOException {
    this.host = host;
    this.port = port;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("freezing-proxy-accept").start(this::accept);
  }

  /** The port clients connect to. */
  public int port() {
    return listener.getLocalPort();
  }

  public void freeze() {
    frozen = true;
  }

  public synchronized void thaw() {
    frozen = false;
    notifyAll();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(host, port);
        sockets.add(client);
        sockets.add(server);
        Thread.ofVirtual().start(() -> pipe(client, server));
        Thread.ofVirtual().start(() -> pipe(server, client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pipe(Socket from, Socket to) {
    byte[] buffer = new byte[8192];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        synchronized (this) {
          while (frozen) {
            wait();
          }
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // closed
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException e) {
        // closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    thaw();
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
