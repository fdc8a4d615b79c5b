package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StallTimeoutSocketsTest {
  @Test
  void aReadWithNoTimeoutSetFailsAfterTheStallInsteadOfWaitingForever() throws Exception {
    StallTimeoutSockets sockets = new StallTimeoutSockets(Duration.ofMillis(200));
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket socket = sockets.createSocket()) {
      socket.connect(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()));
      socket.setSoTimeout(0); // what a client library sets for "no read timeout"
      assertThat(socket.getSoTimeout()).isEqualTo(200);
      try (Socket accepted = silent.accept()) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> socket.getInputStream().read())
            .isInstanceOf(SocketTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
            .isGreaterThan(Duration.ofMillis(150));
      }
    }
  }

  @Test
  void aTimeoutTheClientSetsIsKept() throws Exception {
    try (Socket socket = new StallTimeoutSockets(Duration.ofSeconds(60)).createSocket()) {
      assertThat(socket.getSoTimeout()).isEqualTo(60_000);
      socket.setSoTimeout(1_234);
      assertThat(socket.getSoTimeout()).isEqualTo(1_234);
    }
  }

  @Test
  void aStallOfNothingIsRefused() {
    assertThatThrownBy(() -> new StallTimeoutSockets(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stall");
  }
}
