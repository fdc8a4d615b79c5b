package dev.legio.app.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import javax.net.SocketFactory;

/**
 * Sockets whose blocking reads fail after a stall: a read timeout of 0 ("none") set on them becomes
 * {@code stall}, so that a client whose library's own timeouts are off still cannot wait forever.
 * The kernel keeps the time (SO_TIMEOUT): no timer thread, no lock shared between clients.
 */
final class StallTimeoutSockets extends SocketFactory {
  private final int stallMillis;

  StallTimeoutSockets(Duration stall) {
    if (stall.isNegative() || stall.isZero() || stall.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("stall must be from 1 ms to 24 days, got " + stall);
    }
    this.stallMillis = (int) stall.toMillis();
  }

  @Override
  public Socket createSocket() throws SocketException {
    Socket socket =
        new Socket() {
          @Override
          public void setSoTimeout(int timeout) throws SocketException {
            super.setSoTimeout(timeout == 0 ? stallMillis : timeout);
          }
        };
    socket.setSoTimeout(0);
    return socket;
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new java.net.InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    throw new UnsupportedOperationException("bind to a local address: not used by the bench");
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connected(new java.net.InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    throw new UnsupportedOperationException("bind to a local address: not used by the bench");
  }

  private Socket connected(java.net.InetSocketAddress address) throws IOException {
    Socket socket = createSocket();
    socket.connect(address, stallMillis);
    return socket;
  }
}
