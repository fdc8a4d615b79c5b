package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.Main;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio serve} in a child process, stopped with SIGTERM as a service manager would. */
class ServeCommandTest {
  @TempDir Path dir;

  @Test
  void serveSaysWhatItServesAndStopsCleanlyOnSigterm() throws Exception {
    Path ws = dir.resolve("legion");
    StringWriter sink = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", ws.toString()},
                Map.of(),
                dir,
                new PrintWriter(sink),
                new PrintWriter(sink)))
        .isZero();
    String java = ProcessHandle.current().info().command().orElse("java");
    Process serve =
        new ProcessBuilder(
                List.of(
                    java,
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "--castra",
                    ws.toString(),
                    "serve"))
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader output =
          new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
      // The test class path carries a console logger; skip its lines.
      String first = output.readLine();
      while (first != null && !first.startsWith("Legio is serving")) {
        first = output.readLine();
      }
      assertThat(first)
          .startsWith("Legio is serving " + ws)
          .contains("store sqlite", "back-end offline model", "agents legatus, pullo, vorenus")
          .contains("reaped every 60 s (timeout 30 min)", "daily at 02:00 UTC");

      serve.destroy(); // SIGTERM
      assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // 143 = 128 + SIGTERM: the JVM's exit status after its shutdown hooks ran.
      assertThat(serve.exitValue()).isEqualTo(143);
      String logged = Files.readString(ws.resolve("castra/logs/legio.log"));
      assertThat(logged)
          .contains("Legio is serving")
          .contains("stopping: signal received")
          .contains("session engine stopped")
          .contains("stopped cleanly");
      assertThat(logged.indexOf("session engine stopped"))
          .isLessThan(logged.indexOf("stopped cleanly"));
    } finally {
      serve.destroyForcibly();
    }
  }
}
