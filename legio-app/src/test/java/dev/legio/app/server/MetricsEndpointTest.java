package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.session.HeldLeases;
import dev.legio.session.LeaseHolder;
import dev.legio.session.SessionStore;
import dev.legio.session.jdbc.JdbcSessionStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} through real HTTP: after a scripted set of turns on the offline model, every
 * metric the issue names is there with exactly the count the script makes, the text is well-formed
 * Prometheus exposition, and only operator and metrics tokens may read it.
 */
class MetricsEndpointTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofMillis(300), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void aScriptedSetOfTurnsIsCountedExactly() throws Exception {
    for (String text : new String[] {"scout the ford", "and the bridge?", "report"}) {
      assertThat(say("@vorenus " + text).statusCode()).isEqualTo(200);
    }
    // pullo's lease is held by a process that has died: the next turn takes it over.
    SessionStore killed =
        f.app
            .store()
            .sessionsAs(
                new JdbcSessionStore.LeaseUpkeep(
                    new LeaseHolder(LeaseHolder.thisProcess().host(), deadPid()),
                    new HeldLeases(false),
                    null));
    assertThat(killed.tryLease("pullo", "killed-mid-turn", Instant.now(), Duration.ofMinutes(15)))
        .isTrue();
    assertThat(say("@pullo hold the line").statusCode()).isEqualTo(200);
    // A turn held by the model, and a second request that waits past lock_wait: busy.
    CompletableFuture<HttpResponse<String>> holding =
        CompletableFuture.supplyAsync(() -> sayUnchecked("@pullo #hold wait for orders"));
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
    long logged = f.app.messageLog().size();
    CompletableFuture<HttpResponse<String>> waiting =
        CompletableFuture.supplyAsync(() -> sayUnchecked("@pullo are you there?"));
    while (f.app.messageLog().size() == logged) {
      Thread.sleep(10); // until the second request is logged and waits for pullo
    }
    Thread.sleep(600); // past [sessions] lock_wait (300 ms here), measured on the real clock
    f.release();
    assertThat(holding.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(waiting.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(409);
    // Two chats of one source: one label value, not one per chat.
    for (String chat : new String[] {"telegram:123", "telegram:456"}) {
      HttpResponse<String> r =
          f.post("/api/v1/channels/" + chat + "/messages", f.gateway, Map.of("text", "ave"));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
    assertThat(f.delete("/api/v1/sessions/vorenus", f.operator).statusCode()).isEqualTo(200);

    HttpResponse<String> r = f.get("/metrics", f.scraper);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
    PrometheusText m = PrometheusText.parse(r.body());

    assertThat(m.types)
        .containsEntry("legio_turns_total", "counter")
        .containsEntry("legio_turn_duration_seconds", "histogram")
        .containsEntry("legio_tokens_total", "counter")
        .containsEntry("legio_cost_usd_total", "counter")
        .containsEntry("legio_session_rebuilds_total", "counter")
        .containsEntry("legio_lease_takeovers_total", "counter")
        .containsEntry("legio_messages_appended_total", "counter")
        .containsEntry("legio_active_sessions", "gauge");
    assertThat(m.types.keySet())
        .anyMatch(n -> n.startsWith("jvm_memory_used"))
        .anyMatch(n -> n.startsWith("jvm_gc_"))
        .anyMatch(n -> n.startsWith("jvm_threads_live"))
        .anyMatch(n -> n.startsWith("hikaricp_connections_active"));

    // Turns by agent and outcome: channels by their source only.
    assertThat(m.value("legio_turns_total{agent=\"vorenus\",outcome=\"completed\"}")).isEqualTo(3);
    assertThat(m.value("legio_turns_total{agent=\"pullo\",outcome=\"completed\"}")).isEqualTo(2);
    assertThat(m.value("legio_turns_total{agent=\"pullo\",outcome=\"busy\"}")).isEqualTo(1);
    assertThat(m.value("legio_turns_total{agent=\"telegram:*\",outcome=\"completed\"}"))
        .isEqualTo(2);
    assertThat(m.samples.keySet().stream().filter(k -> k.startsWith("legio_turns_total")))
        .hasSize(4);
    assertThat(m.samples.keySet()).noneMatch(k -> k.contains("telegram:123"));

    // The histogram times the turns that ran, not the busy answer.
    String vorenus = "agent=\"vorenus\",";
    assertThat(m.value("legio_turn_duration_seconds_count{" + vorenus + "outcome=\"completed\"}"))
        .isEqualTo(3);
    assertThat(
            m.value(
                "legio_turn_duration_seconds_bucket{"
                    + vorenus
                    + "le=\"+Inf\",outcome=\"completed\"}"))
        .isEqualTo(3);
    assertThat(m.value("legio_turn_duration_seconds_sum{" + vorenus + "outcome=\"completed\"}"))
        .isPositive();
    assertThat(m.value("legio_turn_duration_seconds_count{agent=\"pullo\",outcome=\"completed\"}"))
        .isEqualTo(2);
    assertThat(m.samples.keySet())
        .noneMatch(k -> k.startsWith("legio_turn_duration_seconds") && k.contains("busy"));

    assertThat(m.value("legio_session_rebuilds_total{reason=\"reset\"}")).isEqualTo(1);
    assertThat(m.value("legio_session_rebuilds_total{reason=\"idle\"}")).isZero();
    assertThat(m.value("legio_lease_takeovers_total")).isEqualTo(1);
    // 7 answered requests (request and reply each) and the busy request, logged unanswered.
    assertThat(m.value("legio_messages_appended_total")).isEqualTo(15);
    assertThat(f.app.messageLog().size()).isEqualTo(15);
    // pullo and the two chats; vorenus's session was reset.
    assertThat(m.value("legio_active_sessions")).isEqualTo(3);

    // Tokens and cost as the usage ledger counts them (written off the turns' path: wait for it).
    JsonNode total = ledgerTotalOnceItHas(7);
    assertThat(m.value("legio_tokens_total{direction=\"input\"}"))
        .isEqualTo(total.get("input_tokens").asDouble())
        .isPositive();
    assertThat(m.value("legio_tokens_total{direction=\"output\"}"))
        .isEqualTo(total.get("output_tokens").asDouble())
        .isPositive();
    assertThat(m.value("legio_tokens_total{direction=\"cache_read\"}"))
        .isEqualTo(total.get("cache_read_tokens").asDouble());
    assertThat(m.value("legio_tokens_total{direction=\"cache_write\"}"))
        .isEqualTo(total.get("cache_write_tokens").asDouble());
    assertThat(m.value("legio_cost_usd_total")).isZero(); // the offline model is free
  }

  @Test
  void taskTurnsAreCountedUnderTheirAgentAsTheEnginesAre() throws Exception {
    Map<String, String> task =
        Map.of("session_key", "campaign:7f3c", "agent", "pullo", "text", "draft the copy");
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> r = f.post("/api/v1/tasks", f.task, task);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
    // A task that waits past lock_wait behind a held one: busy, not timed.
    CompletableFuture<HttpResponse<String>> holding =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return f.post(
                    "/api/v1/tasks",
                    f.task,
                    Map.of("session_key", "campaign:9", "agent", "pullo", "text", "#hold"));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
    HttpResponse<String> busy =
        f.post(
            "/api/v1/tasks",
            f.task,
            Map.of("session_key", "campaign:9", "agent", "pullo", "text", "again"));
    assertThat(busy.statusCode()).as(busy.body()).isEqualTo(409);
    f.release();
    assertThat(holding.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

    PrometheusText m = PrometheusText.parse(f.get("/metrics", f.scraper).body());
    assertThat(m.value("legio_turns_total{agent=\"pullo\",outcome=\"completed\"}")).isEqualTo(3);
    assertThat(m.value("legio_turns_total{agent=\"pullo\",outcome=\"busy\"}")).isEqualTo(1);
    assertThat(m.value("legio_turn_duration_seconds_count{agent=\"pullo\",outcome=\"completed\"}"))
        .isEqualTo(3);
    assertThat(m.value("legio_tokens_total{direction=\"output\"}")).isPositive();
  }

  @Test
  void onlyOperatorAndMetricsTokensMayReadTheMetrics() throws Exception {
    assertThat(f.get("/metrics", f.operator).statusCode()).isEqualTo(200);
    assertThat(f.get("/metrics", f.scraper).statusCode()).isEqualTo(200);

    HttpResponse<String> none = f.get("/metrics", null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).isPresent();
    assertThat(none.body()).doesNotContain("legio_");
    assertThat(f.get("/metrics", "not-a-token").statusCode()).isEqualTo(401);

    HttpResponse<String> gateway = f.get("/metrics", f.gateway);
    assertThat(gateway.statusCode()).isEqualTo(403);
    assertThat(ServerFixture.json(gateway).get("error").asText()).contains("role gateway");
    assertThat(f.get("/metrics", f.task).statusCode()).isEqualTo(403);

    // A scraper's token reads nothing else.
    HttpResponse<String> status = f.get("/api/v1/status", f.scraper);
    assertThat(status.statusCode()).isEqualTo(403);
    assertThat(ServerFixture.json(status).get("error").asText())
        .contains("a metrics token may only use GET /metrics");
    assertThat(say("@vorenus hello", f.scraper).statusCode()).isEqualTo(403);
  }

  @Test
  void beforeAnyTurnTheMetricsAreWellFormedAndZero() throws Exception {
    PrometheusText m = PrometheusText.parse(f.get("/metrics", f.operator).body());
    assertThat(m.value("legio_messages_appended_total")).isZero();
    assertThat(m.value("legio_active_sessions")).isZero();
    assertThat(m.value("legio_lease_takeovers_total")).isZero();
    assertThat(m.samples.keySet().stream().filter(k -> k.startsWith("legio_session_rebuilds")))
        .hasSize(dev.legio.session.RebuildReason.values().length);
    assertThat(m.samples.keySet()).noneMatch(k -> k.startsWith("legio_turns_total"));
  }

  private HttpResponse<String> say(String text) throws Exception {
    return say(text, f.operator);
  }

  private HttpResponse<String> say(String text, String token) throws Exception {
    return f.post("/api/v1/messages", token, Map.of("text", text));
  }

  private HttpResponse<String> sayUnchecked(String text) {
    try {
      return say(text);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The usage ledger's total once it holds {@code turns} turns (within a minute). */
  private JsonNode ledgerTotalOnceItHas(long turns) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      JsonNode total = ServerFixture.json(f.get("/api/v1/usage?since=1h", f.operator)).get("total");
      if (total.get("turns").asLong() >= turns || System.nanoTime() > deadline) {
        assertThat(total.get("turns").asLong()).isEqualTo(turns);
        return total;
      }
      Thread.sleep(20);
    }
  }

  /** The pid of a process that has ended, on this host. */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }
}
