package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** The workspace the MCP tests serve: made by {@code legio init legion} in a folder, and opened. */
final class McpTestApps {
  private McpTestApps() {}

  static LegioApp initialised(Path dir) {
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {"init", "legion"},
            Map.of(),
            dir,
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isZero();
    return LegioApp.open(new Workspace(dir.resolve("legion")), Map.of(), Clock.systemUTC());
  }
}
