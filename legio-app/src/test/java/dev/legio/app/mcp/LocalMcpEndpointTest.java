package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Where a process on this machine reaches the MCP endpoint of a server, by its bind address. */
class LocalMcpEndpointTest {
  @Test
  void aServerOnEveryInterfaceIsReachedAtLoopback() {
    assertThat(LocalMcpEndpoint.of("0.0.0.0", 8740).uri()).hasToString("http://127.0.0.1:8740/mcp");
    assertThat(LocalMcpEndpoint.of("::", 8740).uri()).hasToString("http://127.0.0.1:8740/mcp");
    assertThat(LocalMcpEndpoint.of("", 8740).uri()).hasToString("http://127.0.0.1:8740/mcp");
  }

  @Test
  void aServerBoundToLocalhostIsReachedAtTheAddressJavaBoundItTo() {
    assertThat(LocalMcpEndpoint.of("localhost", 8740).uri())
        .hasToString("http://127.0.0.1:8740/mcp");
  }

  @Test
  void aServerOnOneAddressIsReachedAtThatAddress() {
    assertThat(LocalMcpEndpoint.of("127.0.0.1", 9000).uri())
        .hasToString("http://127.0.0.1:9000/mcp");
    assertThat(LocalMcpEndpoint.of("10.0.0.5", 9000).uri()).hasToString("http://10.0.0.5:9000/mcp");
    assertThat(LocalMcpEndpoint.of("::1", 9000).uri()).hasToString("http://[::1]:9000/mcp");
  }
}
