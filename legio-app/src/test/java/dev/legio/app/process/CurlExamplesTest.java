package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.app.cli.ShellWord;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code curl} examples of the README and of docs/API.md ("Every example below runs as
 * written") work as written against {@code legio serve}: each document's {@code sh} blocks that
 * call {@code curl} run in a real shell, one after another as a reader follows them in one terminal
 * (the first block's {@code export} serves the later ones), in the workspace's folder, with {@code
 * legio} on the {@code PATH} (this build, as a child process) and a real {@code legio serve}
 * running on the offline model. Two things differ from a reader's terminal, and only these: the
 * server listens on a free port, so {@code http://127.0.0.1:8740} is replaced by its address; and
 * each {@code curl} is given a time limit (3 s for a stream, {@code -N}, 60 s for the others), and
 * its arguments, output and exit code are kept for the test (its output still goes where the
 * example sends it), so that the test can end the event stream and check each command.
 */
class CurlExamplesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Duration LIMIT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Path ws;

  /** One curl's output and exit code, in the order the block ran them. */
  private record Curl(String args, String output, int exit) {
    JsonNode json() throws IOException {
      return JSON.readTree(output);
    }
  }

  @BeforeEach
  void workspace() throws IOException {
    assumeTrue(
        onPath("curl") || "true".equals(System.getenv("CI")),
        "the documents' examples need curl (apt-get install -y curl)");
    ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Workspaces.edit(ws, "http_port = 8740", "http_port = 0");
    Workspaces.edit(ws, "\nport = 8740", "\nport = 0");
    // The task example's agent, as the README's "Task sessions" describes one.
    Path prompt = ws.resolve("castra/centuriones/copywriter/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: Writes copy.\n---\nYou write copy.\n");
  }

  /** The README's {@code sh} blocks that call curl, each as written. */
  static List<String> curlBlocks() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher m = Pattern.compile("```sh\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme);
    List<String> blocks = new ArrayList<>();
    while (m.find()) {
      if (m.group(1).contains("curl ")) {
        blocks.add(m.group(1));
      }
    }
    return blocks;
  }

  @Test
  void theReadmeHasTheApisAndTheTaskSessionsCurlExamples() throws IOException {
    List<String> blocks = curlBlocks();
    assertThat(blocks).hasSize(3);
    assertThat(blocks.get(0)).contains("/api/v1/messages").contains("/api/v1/events");
    assertThat(blocks.get(1)).contains("/api/v1/usage");
    assertThat(blocks.get(2)).contains("/api/v1/tasks").contains("/api/v1/tasks/sessions");
  }

  @Test
  void everyCurlExampleWorksAsWrittenAgainstLegioServe() throws Exception {
    List<String> blocks = curlBlocks();
    try (LegioProcess serve =
        LegioProcess.start(dir, Map.of(), "--castra", ws.toString(), "serve")) {
      URI url = serve.servingUrl(LIMIT);

      // One terminal, as a reader follows the README: the first block's export serves the second.
      List<Curl> curls = run(String.join("\n", blocks), url);
      assertThat(curls).hasSize(5);
      List<Curl> api = curls.subList(0, 2);
      assertThat(api.get(0).exit()).as(api.get(0).output()).isZero();
      JsonNode said = api.get(0).json();
      assertThat(said.path("replies").findValuesAsText("agent"))
          .containsExactly("vorenus", "pullo");
      assertThat(said.path("replies").findValues("error")).allMatch(e -> !e.asBoolean());
      assertThat(said.path("replies").get(0).path("text").asText()).isNotBlank();
      // The event stream stays open until the test's time limit ends it (curl's 28): authorised.
      assertThat(api.get(1).exit()).as(api.get(1).output()).isEqualTo(28);
      assertThat(api.get(1).output()).doesNotContain("\"error\"");

      Curl usage = curls.get(2);
      assertThat(usage.exit()).as(usage.output()).isZero();
      assertThat(usage.json().has("error")).as(usage.output()).isFalse();
      assertThat(usage.output()).contains("offline");

      List<Curl> tasks = curls.subList(3, 5);
      assertThat(tasks.get(0).exit()).as(tasks.get(0).output()).isZero();
      JsonNode task = tasks.get(0).json();
      assertThat(task.path("reply").asText()).as(tasks.get(0).output()).isNotBlank();
      assertThat(task.path("task_run_id").asText()).isEqualTo("run-41");
      assertThat(task.path("resumed").asBoolean()).isFalse();
      assertThat(task.path("usage").has("cost_usd")).isTrue();
      assertThat(tasks.get(1).exit()).as(tasks.get(1).output()).isZero();
      assertThat(tasks.get(1).output())
          .contains("campaign:7f3c")
          .contains("copywriter")
          .contains(task.path("session_id").asText());
    }
  }

  /** docs/API.md's {@code sh} blocks from its "Examples" on, as written. */
  static List<String> apiExamples() throws IOException {
    String api = Files.readString(ROOT.resolve("docs/API.md"));
    int from = api.indexOf("\n## Examples\n");
    int to = api.indexOf("\n## Chat gateways");
    assertThat(from).as("docs/API.md's Examples").isPositive();
    Matcher m =
        Pattern.compile("```sh\\n(.*?)\\n```", Pattern.DOTALL).matcher(api.substring(from, to));
    List<String> blocks = new ArrayList<>();
    while (m.find()) {
      blocks.add(m.group(1));
    }
    return blocks;
  }

  @Test
  void everyExampleOfTheApiDocumentWorksAsWrittenAgainstLegioServe() throws Exception {
    List<String> blocks = apiExamples();
    try (LegioProcess serve =
        LegioProcess.start(dir, Map.of(), "--castra", ws.toString(), "serve")) {
      URI url = serve.servingUrl(LIMIT);
      List<Curl> curls = run(String.join("\n", blocks), url);

      for (Curl curl : curls) {
        boolean stream = curl.args().contains(" -sN ") || curl.args().startsWith("-sN ");
        assertThat(curl.exit())
            .as(curl.args() + " -> " + curl.output())
            .isIn(stream ? List.of(0, 28) : List.of(0));
        assertThat(curl.output()).as(curl.args()).doesNotContain("{\"error\"");
      }
      assertThat(only(curls, "/healthz").json().path("status").asText()).isEqualTo("ok");
      assertThat(only(curls, "/readyz").json().path("status").asText()).isEqualTo("ready");
      List<Curl> sameKey = all(curls, "Idempotency-Key: ");
      assertThat(sameKey).hasSize(2);
      assertThat(sameKey.get(1).json().path("reply").path("id"))
          .as("sent again under its key: the first answer")
          .isEqualTo(sameKey.get(0).json().path("reply").path("id"));
      List<Curl> pages = all(curls, "/sessions?limit=2");
      assertThat(pages).hasSize(2);
      JsonNode firstPage = pages.get(0).json();
      JsonNode nextPage = pages.get(1).json();
      assertThat(pages.get(1).args()).contains("cursor=" + firstPage.path("next_cursor").asText());
      assertThat(firstPage.path("next_cursor").asText()).isNotBlank();
      assertThat(nextPage.path("sessions").findValuesAsText("session_id"))
          .as("the next page")
          .isNotEmpty()
          .doesNotContainAnyElementsOf(firstPage.path("sessions").findValuesAsText("session_id"));
      assertThat(only(curls, "-X DELETE").json().path("closed").asBoolean()).isTrue();
      assertThat(only(curls, "/rewind").json().path("turns_removed").asInt()).isEqualTo(1);
      assertThat(only(curls, "/fork").json().path("owner").asText()).isEqualTo("pullo");
      assertThat(only(curls, "/api/v1/tasks ").json().path("task_run_id").asText())
          .isEqualTo("run-41");
      assertThat(only(curls, "/revoke").json().path("revoked").asBoolean()).isTrue();
      assertThat(only(curls, "/memoria/search").json().path("hits")).isNotEmpty();
      assertThat(only(curls, "/metrics").output()).contains("legio_turns_total");
      List<Curl> events = all(curls, "/api/v1/events");
      assertThat(events).hasSize(2);
      assertThat(events.get(0).output()).startsWith("event: ready");
      assertThat(events.get(1).output())
          .as("Last-Event-ID: 0 replays the log before the live stream")
          .contains("id: 1\nevent: message\n");
    }
  }

  private static List<Curl> all(List<Curl> curls, String argument) {
    return curls.stream().filter(c -> c.args().contains(argument)).toList();
  }

  private static Curl only(List<Curl> curls, String argument) {
    List<Curl> found = all(curls, argument);
    assertThat(found).as("one curl with " + argument).hasSize(1);
    return found.get(0);
  }

  /**
   * Runs {@code script} in bash in the workspace's folder; returns each curl's output and exit
   * code, in the order they ran. Each curl's output still goes where the script sends it (a pipe, a
   * variable) and is also kept in a file of its own, numbered in a file that subshells share.
   */
  private List<Curl> run(String script, URI url) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path legio = bin.resolve("legio");
    Files.writeString(
        legio,
        "#!/bin/sh\nexec "
            + LegioProcess.javaCommand().stream()
                .map(ShellWord::quote)
                .collect(Collectors.joining(" "))
            + " \"$@\"\n");
    Files.setPosixFilePermissions(legio, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path curls = Files.createTempDirectory(dir, "curls-");
    Files.writeString(curls.resolve("count"), "0");
    String wrapped =
        "curl() {\n"
            + "  local n=$(( $(cat \"$CURLS/count\") + 1 ))\n"
            + "  echo $n > \"$CURLS/count\"\n"
            + "  printf '%s\\n' \"$*\" > \"$CURLS/$n.args\"\n"
            + "  case \" $* \" in\n"
            + "    *' -sN '*) command curl --max-time 3 \"$@\" ;;\n"
            + "    *) command curl --max-time 60 \"$@\" ;;\n"
            + "  esac > \"$CURLS/$n.out\"\n"
            + "  local exit=$?\n"
            + "  echo $exit > \"$CURLS/$n.exit\"\n"
            + "  cat \"$CURLS/$n.out\"\n"
            + "  return $exit\n"
            + "}\n"
            + script.replace("http://127.0.0.1:8740", url.toString().replaceAll("/$", ""))
            + "\n";
    Path errors = Files.createTempFile(dir, "shell-", ".err");
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", wrapped)
            .directory(ws.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(errors.toFile());
    Map<String, String> env = builder.environment();
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("HOME", dir.toString());
    env.put("CURLS", curls.toString());
    Process shell = builder.start();
    shell.getOutputStream().close();
    assertThat(shell.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS))
        .as("the examples ended within " + LIMIT)
        .isTrue();
    String err = Files.readString(errors);
    int count = Integer.parseInt(Files.readString(curls.resolve("count")).strip());
    List<Curl> ran = new ArrayList<>();
    for (int n = 1; n <= count; n++) {
      ran.add(
          new Curl(
              Files.readString(curls.resolve(n + ".args")).strip(),
              Files.readString(curls.resolve(n + ".out")),
              Integer.parseInt(Files.readString(curls.resolve(n + ".exit")).strip())));
    }
    assertThat(ran).as("stderr: " + err).isNotEmpty();
    return ran;
  }

  private static boolean onPath(String program) {
    return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, program)));
  }
}
