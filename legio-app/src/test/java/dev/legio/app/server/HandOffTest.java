package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's threads never run a turn nor wait for one ({@link HandOff}): every turn runs on a
 * virtual thread, the engine's time comes back in {@code Server-Timing}, and turns waiting in their
 * hundreds hold none of the API's threads.
 */
class HandOffTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofSeconds(60), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void everyTurnRunsOnAVirtualThreadAndTheEnginesTimeComesBack() throws Exception {
    List<HttpResponse<String>> answers = new ArrayList<>();
    answers.add(f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus scout")));
    answers.add(
        f.post(
            "/api/v1/channels/telegram:7/messages",
            f.gateway,
            Map.of("text", "hello", "user", Map.of("id", "7", "name", "Lucius"))));
    answers.add(
        f.post(
            "/api/v1/tasks",
            f.task,
            Map.of("session_key", "campaign:1", "agent", "pullo", "text", "draft")));

    for (HttpResponse<String> answer : answers) {
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      String timing = answer.headers().firstValue("Server-Timing").orElse("");
      assertThat(timing).as(answer.uri().toString()).matches("engine;dur=[0-9.]+, api;dur=[0-9.]+");
    }
    assertThat(f.turnThreads).hasSize(3).allMatch(Thread::isVirtual);
    assertThat(f.turnThreads)
        .extracting(Thread::getName)
        .noneMatch(name -> name.startsWith("legio-http"));
  }

  @Test
  void moreWaitingTurnsThanTheApiHasThreadsHoldNoneOfThem() throws Exception {
    // One turn held at the back-end, and more requests behind it for the same agent than the API
    // has threads: each waits on a virtual thread of its own.
    int waiting = ApiThreads.COUNT + 50;
    List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
    pending.add(send("@vorenus #hold"));
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < waiting; i++) {
      pending.add(send("@vorenus wait " + i));
    }
    // The API still answers at once, while every one of those requests is in flight.
    assertThat(f.get("/healthz", null).statusCode()).isEqualTo(200);
    HttpResponse<String> status = f.get("/api/v1/status", f.operator);
    assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
    assertThat(pending).noneMatch(CompletableFuture::isDone);

    f.release();
    for (CompletableFuture<HttpResponse<String>> answer : pending) {
      HttpResponse<String> done = answer.get(120, TimeUnit.SECONDS);
      assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
    }
    assertThat(f.turnThreads).hasSize(waiting + 1).allMatch(Thread::isVirtual);
  }

  private CompletableFuture<HttpResponse<String>> send(String text) throws Exception {
    return f.http.sendAsync(
        f.request("/api/v1/messages", f.operator)
            .timeout(Duration.ofSeconds(120))
            .header("Content-Type", "application/json")
            .POST(
                java.net.http.HttpRequest.BodyPublishers.ofString(
                    ServerFixture.JSON.writeValueAsString(Map.of("text", text))))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
