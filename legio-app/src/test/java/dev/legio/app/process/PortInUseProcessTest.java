package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio serve} on a port another program holds: one line on standard error that says so and
 * which setting to change, the details in the log file, and a failed exit.
 */
class PortInUseProcessTest {
  @TempDir Path dir;

  @Test
  void aPortInUseIsOneLineThatSaysSoAndWhatToChange() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Workspaces.edit(ws, "\nport = 8740", "\nport = " + port);
      Workspaces.edit(ws, "http_port = 8740", "http_port = " + port); // MCP on the API's port

      LegioProcess serve =
          LegioProcess.run(
              dir, Map.of(), Duration.ofSeconds(60), "--castra", ws.toString(), "serve");

      assertThat(serve.exitCode()).as(serve.stderr()).isEqualTo(1);
      assertThat(serve.stderr().lines().filter(l -> l.startsWith("legio: ")))
          .containsExactly(
              "legio: cannot serve the Legio API on 127.0.0.1:"
                  + port
                  + ": the port is in use by another program; stop it, or choose another"
                  + " [server] port (0 picks a free one) or bind in legio.toml (details in the"
                  + " log file)");
      assertThat(serve.stderr()).doesNotContain("Exception", "\tat ");
      assertThat(Workspaces.logFile(ws)).contains("Address already in use");
    }
  }
}
