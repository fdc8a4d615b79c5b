package dev.legio.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.BindException;
import java.nio.channels.UnresolvedAddressException;
import org.junit.jupiter.api.Test;

class CannotListenExceptionTest {
  @Test
  void aPortInUseIsNamedSoWhereverItIsInTheCauses() {
    IOException jetty =
        new IOException(
            "Failed to bind to /127.0.0.1:8740", new BindException("Address already in use"));
    assertThat(
            CannotListenException.of(
                "the Legio API", "127.0.0.1", 8740, jetty, "choose another port"))
        .hasMessage(
            "cannot serve the Legio API on 127.0.0.1:8740: the port is in use by another program;"
                + " stop it, or choose another port")
        .hasCause(jetty);
  }

  @Test
  void anotherCauseKeepsTheSystemsWordsAndAnIpv6HostIsBracketed() {
    IOException jetty =
        new IOException(
            "Failed to bind to /[fd00::9]:8740",
            new BindException("Cannot assign requested address"));
    assertThat(
            CannotListenException.of(
                "MCP over HTTP", "fd00::9", 8740, jetty, "set http_enabled = false"))
        .hasMessage(
            "cannot serve MCP over HTTP on [fd00::9]:8740: Cannot assign requested address;"
                + " set http_enabled = false");
    assertThat(
            CannotListenException.of(
                "MCP over HTTP", "h", 1, new IllegalStateException(), "fix it"))
        .hasMessage("cannot serve MCP over HTTP on h:1: IllegalStateException; fix it");
  }

  @Test
  void aHostNameThatResolvesToNothingIsNamedSoNotByTheExceptionsClass() {
    IOException jetty =
        new IOException("Failed to bind to not an address:8740", new UnresolvedAddressException());
    assertThat(
            CannotListenException.of(
                "the Legio API", "not an address", 8740, jetty, "choose another [server] bind"))
        .hasMessage(
            "cannot serve the Legio API on not an address:8740: the host 'not an address' is not"
                + " an address and no name lookup knows it; choose another [server] bind")
        .hasCause(jetty);
  }
}
