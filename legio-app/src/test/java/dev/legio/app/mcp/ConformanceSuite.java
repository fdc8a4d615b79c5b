package dev.legio.app.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The official MCP conformance suite ({@code @modelcontextprotocol/conformance}, pinned in {@code
 * bin/install-mcp-conformance}) and the Node.js 22 it needs, from Legio's npm cache folder ({@code
 * $LEGIO_MCP_CONFORMANCE_DIR}, default {@code ~/.cache/legio/mcp-conformance}), installed on first
 * use when npm is there. Where it cannot be installed the calling test is skipped with the reason;
 * under CI ({@code CI=true}) it fails instead.
 */
final class ConformanceSuite {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One check the suite reported: its id, SUCCESS / FAILURE / WARNING / INFO, and why. */
  record Check(String scenario, String id, String status, String message) {}

  private final Path dir;

  private ConformanceSuite(Path dir) {
    this.dir = dir;
  }

  static ConformanceSuite installed() {
    Map<String, String> env = System.getenv();
    Path dir =
        env.containsKey("LEGIO_MCP_CONFORMANCE_DIR")
            ? Path.of(env.get("LEGIO_MCP_CONFORMANCE_DIR"))
            : Path.of(System.getProperty("user.home"), ".cache", "legio", "mcp-conformance");
    ConformanceSuite suite = new ConformanceSuite(dir);
    if (!suite.present()) {
      String problem = suite.install();
      if (problem != null || !suite.present()) {
        String message =
            "The MCP conformance test needs the suite and Node.js 22 in "
                + dir
                + ": "
                + (problem == null ? "not installed" : problem)
                + ". Run bin/install-mcp-conformance (needs npm).";
        if ("true".equalsIgnoreCase(env.get("CI"))) {
          Assertions.fail(message + " Under CI this test must run.");
        }
        Assumptions.abort(message);
      }
    }
    return suite;
  }

  private Path node() {
    return dir.resolve("node_modules/.bin/node");
  }

  private Path cli() {
    return dir.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
  }

  private boolean present() {
    return Files.isExecutable(node()) && Files.isRegularFile(cli());
  }

  private String install() {
    Path script = null;
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isExecutable(p.resolve("bin/install-mcp-conformance"))) {
        script = p.resolve("bin/install-mcp-conformance");
        break;
      }
    }
    if (script == null) {
      return "bin/install-mcp-conformance not found";
    }
    try {
      Process p =
          new ProcessBuilder(script.toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
        p.destroyForcibly();
        return script + " failed";
      }
      return null;
    } catch (IOException e) {
      return "could not run " + script + ": " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /** Runs one server scenario against {@code url}; returns every check it reported. */
  List<Check> runServerScenario(String scenario, String url, Path work) throws Exception {
    Path out = Files.createDirectories(work.resolve(scenario.replace('/', '_')));
    Path log = work.resolve(scenario.replace('/', '_') + ".log");
    Process p =
        new ProcessBuilder(
                node().toString(),
                cli().toString(),
                "server",
                "--url",
                url,
                "--scenario",
                scenario,
                "-o",
                out.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(3, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      Assertions.fail("conformance scenario " + scenario + " timed out:\n" + Files.readString(log));
    }
    List<Check> checks = new ArrayList<>();
    try (Stream<Path> files = Files.walk(out)) {
      for (Path f : files.filter(f -> f.getFileName().toString().equals("checks.json")).toList()) {
        for (JsonNode c : JSON.readTree(f.toFile())) {
          checks.add(
              new Check(
                  scenario,
                  c.path("id").asText(),
                  c.path("status").asText(),
                  c.path("errorMessage").asText("")));
        }
      }
    }
    if (checks.isEmpty()) {
      Assertions.fail(
          "conformance scenario " + scenario + " reported no checks:\n" + Files.readString(log));
    }
    return checks;
  }
}
