package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's threads ({@link ApiThreads}) as a running server uses them: the selector stays on one
 * thread while requests come and go, instead of handing its role to another thread at each request.
 */
class ApiThreadsTest {
  @Test
  void theSelectorKeepsItsThreadWhileRequestsAreAnswered(@TempDir Path dir) throws Exception {
    Set<String> selectors = new LinkedHashSet<>();
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(60), 4096)) {
      for (int i = 0; i < 30; i++) {
        HttpResponse<String> answer =
            i % 3 == 0
                ? f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus turn " + i))
                : f.get("/api/v1/history?limit=1", f.operator);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        selectors.add(awaitSelector());
      }
    }

    assertThat(selectors).as("the threads that selected between requests").hasSize(1);
    assertThat(selectors.iterator().next()).startsWith(ApiThreads.NAME);
  }

  @Test
  void thePoolHasEveryThreadFromTheStartAndNoneReserved() {
    var pool = ApiThreads.pool();

    assertThat(pool.getMinThreads()).isEqualTo(ApiThreads.COUNT);
    assertThat(pool.getMaxThreads()).isEqualTo(ApiThreads.COUNT);
    assertThat(pool.getReservedThreads()).isZero();
  }

  /** The name of the API thread waiting in Jetty's select, once one is. */
  private static String awaitSelector() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      Optional<String> selecting =
          Thread.getAllStackTraces().entrySet().stream()
              .filter(e -> e.getKey().getName().startsWith(ApiThreads.NAME))
              .filter(e -> selecting(e.getValue()))
              .map(e -> e.getKey().getName())
              .findFirst();
      if (selecting.isPresent()) {
        return selecting.get();
      }
      assertThat(System.nanoTime()).as("no API thread went back to select").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private static boolean selecting(StackTraceElement[] stack) {
    return Arrays.stream(stack)
        .anyMatch(
            frame ->
                frame.getClassName().equals("org.eclipse.jetty.io.ManagedSelector")
                    && frame.getMethodName().equals("nioSelect"));
  }
}
