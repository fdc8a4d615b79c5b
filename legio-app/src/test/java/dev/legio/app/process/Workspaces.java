package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Fresh workspaces for process-level tests, their {@code legio.toml} edited key by key. */
public final class Workspaces {
  private Workspaces() {}

  /** {@code legio init DIR/name}, in this JVM (fast); returns the workspace's root. */
  public static Path init(Path dir, String name) {
    Path ws = dir.resolve(name);
    StringWriter sink = new StringWriter();
    int code =
        Main.run(
            new String[] {"init", ws.toString()},
            Map.of(),
            dir,
            new PrintWriter(sink),
            new PrintWriter(sink));
    assertThat(code).as(sink.toString()).isZero();
    return ws;
  }

  /**
   * {@link #init} of a workspace whose back-end is the Anthropic API at {@code modelUrl} (a fake)
   * and whose {@code legio serve} listens on free ports; returns the workspace's root.
   */
  public static Path servingOnModel(Path dir, String name, java.net.URI modelUrl) {
    Path ws = init(dir, name);
    edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
    edit(ws, "base_url = \"\"", "base_url = \"" + modelUrl + "\"");
    edit(ws, "\nport = 8740", "\nport = 0");
    edit(ws, "http_port = 8740", "http_port = 0");
    return ws;
  }

  /** Replaces the first {@code from} in the workspace's legio.toml by {@code to}. */
  public static void edit(Path ws, String from, String to) {
    try {
      Path toml = ws.resolve("legio.toml");
      String text = Files.readString(toml);
      assertThat(text).contains(from);
      Files.writeString(toml, text.replaceFirst(java.util.regex.Pattern.quote(from), to));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The workspace's log file's text ("" when it does not exist). */
  static String logFile(Path ws) {
    try {
      Path file = ws.resolve("castra/logs/legio.log");
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first column of the one row {@code sql} gives in workspace {@code ws}'s SQLite store. */
  public static long count(Path ws, String sql) {
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + ws.resolve("castra/praetorium.db"));
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
