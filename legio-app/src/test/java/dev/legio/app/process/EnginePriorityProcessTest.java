package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.Role;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio serve}'s threads as Linux schedules them, read from {@code /proc} of the real
 * process after a turn: with {@code [server] engine_priority = "lowered"} (the default) the threads
 * that carried the turn run at nice 10 and the API's threads and the lease heartbeat at nice 0;
 * with {@code "equal"} every thread keeps nice 0.
 */
class EnginePriorityProcessTest {
  @TempDir Path dir;

  /** One thread of a process: its name and nice value, from /proc/PID/task/TID/stat. */
  private record ThreadNice(String name, int nice) {}

  @Test
  void theEngineThreadsRunLoweredAndTheApisThreadsDoNot() throws Exception {
    List<ThreadNice> threads = threadsAfterATurn("lowered");

    assertThat(threads)
        .as("the carriers of the turn's virtual threads")
        .filteredOn(t -> t.name().startsWith("ForkJoinPool"))
        .extracting(ThreadNice::nice)
        .contains(10);
    assertThat(threads)
        .as("the API's own threads")
        .filteredOn(t -> t.name().startsWith("legio-http"))
        .isNotEmpty()
        .extracting(ThreadNice::nice)
        .containsOnly(0);
    assertThat(threads)
        .as("the lease heartbeat, started before any turn")
        .filteredOn(t -> t.name().startsWith("legio-lease-h"))
        .isNotEmpty()
        .extracting(ThreadNice::nice)
        .containsOnly(0);
  }

  @Test
  void withEqualPriorityNoThreadIsLowered() throws Exception {
    List<ThreadNice> threads = threadsAfterATurn("equal");

    assertThat(threads).extracting(ThreadNice::nice).containsOnly(0);
  }

  /** Starts legio serve with {@code priority}, runs one turn through the API, reads the threads. */
  private List<ThreadNice> threadsAfterATurn(String priority) throws Exception {
    assumeTrue(
        Files.isDirectory(Path.of("/proc/self/task")),
        "thread priorities are read from Linux's /proc");
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Workspaces.edit(ws, "http_port = 8740", "http_port = 0");
    Workspaces.edit(ws, "\nport = 8740", "\nport = 0");
    Workspaces.edit(ws, "engine_priority = \"lowered\"", "engine_priority = \"" + priority + "\"");
    String token =
        new ApiTokens(ws.resolve("castra")).create("test", Role.OPERATOR, List.of()).secret();
    try (LegioProcess serve =
        LegioProcess.start(dir, Map.of(), "--castra", ws.toString(), "serve")) {
      URI api = awaitUrl(serve);
      HttpResponse<String> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(api.resolve("/api/v1/messages"))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus scout\"}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      return threadsOf(serve.pid());
    }
  }

  private static URI awaitUrl(LegioProcess serve) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      String out = serve.stdout();
      int at = out.indexOf("Legio is serving ");
      if (at >= 0 && out.indexOf(": store", at) > 0) {
        String line = out.substring(at, out.indexOf(": store", at));
        return URI.create(line.substring(line.indexOf(" at ") + 4));
      }
      assertThat(serve.isAlive()).as(serve.stderr()).isTrue();
      assertThat(System.nanoTime()).as("serve did not start").isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static List<ThreadNice> threadsOf(long pid) throws IOException {
    List<ThreadNice> threads = new ArrayList<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended meanwhile
        }
        // pid (comm) state ppid ... : the name may hold spaces, so split after the last ')'.
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // Field 19 of stat is the nice value; fields[] starts at field 3 (state).
        threads.add(new ThreadNice(name, Integer.parseInt(fields[16])));
      }
    }
    return threads;
  }
}
