package dev.legio.app.gateway.slack;

import static dev.legio.app.gateway.GatewayFixture.await;
import static dev.legio.app.gateway.slack.SlackRequests.callback;
import static dev.legio.app.gateway.slack.SlackRequests.mention;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.gateway.GatewayFixture;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.store.gateway.GatewayStateStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat gateway's turn when Legio stops (the server's drain, as {@code legio serve} runs it on
 * SIGTERM): the gateway takes no new message, its turn in flight finishes within the shutdown grace
 * and its answer is the model's; one still running when the grace ends is left to the next process,
 * which answers it once.
 */
class SlackDrainTest {
  @TempDir Path dir;
  private FakeSlack slack;
  private GatewayFixture legio;
  private final CountDownLatch turnRunning = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    release.countDown();
    if (legio != null) {
      legio.close();
    }
    if (slack != null) {
      slack.close();
    }
  }

  private void start(int graceSeconds) throws Exception {
    slack = new FakeSlack();
    legio =
        new GatewayFixture(
            dir,
            SlackRequests.ENV,
            toml ->
                toml.replace(
                    "shutdown_grace_seconds = 30", "shutdown_grace_seconds = " + graceSeconds),
            SlackRequests.gateway(
                slack.apiUrl(),
                new ReplyOutbox.Backoff(Duration.ofMillis(100), Duration.ofMillis(400)),
                new GatewayFixture.Sleeps()));
    await(() -> legio.health("slack").state() == GatewayHealth.State.CONNECTED);
    legio.replies = GatewayFixture.slowOnesWaitFor(turnRunning, release, message -> null);
  }

  private HttpResponse<String> deliver(String eventId, String text) throws Exception {
    String body = callback(eventId, mention("C123", "U123", "<@U0BOT> " + text, "1700.0001"));
    return legio.post(SlackGateway.PATH, body, SlackRequests.signed(SlackRequests.SECRET, body));
  }

  /** What the gateway answered: posted to Slack, or still owed in its outbox. */
  private List<String> answers() {
    List<String> out = new ArrayList<>();
    slack.calls.stream()
        .filter(c -> c.method().equals("chat.postMessage"))
        .forEach(c -> out.add(String.valueOf(c.params().get("text"))));
    legio.app.store().gatewayState().pending("slack").stream()
        .map(GatewayStateStore.Outbound::text)
        .forEach(out::add);
    return out;
  }

  private void awaitDraining() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (legio.get("/readyz", null).statusCode() != 503) {
      assertThat(System.nanoTime()).as("draining within 30 s").isLessThan(deadline);
      Thread.sleep(10);
    }
    Thread.sleep(100); // the gateways stop taking right after readiness
  }

  @Test
  void aTurnInFlightFinishesWithinTheGraceWhileNewMessagesGet503() throws Exception {
    start(30);
    assertThat(deliver("Ev1", "a slow one").statusCode()).isEqualTo(200);
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> stopping = CompletableFuture.runAsync(legio.server::close);
    awaitDraining();
    assertThat(deliver("Ev2", "too late").statusCode())
        .as("Slack sends it again later, or to another node")
        .isEqualTo(503);
    Thread.sleep(6_000); // longer than a gateway's own 5 s wait for its turns
    assertThat(stopping).as("the drain waits for the gateway's turn").isNotDone();

    release.countDown();
    stopping.get(30, TimeUnit.SECONDS);
    assertThat(answers()).containsExactly("the model's answer");
  }

  @Test
  void aTurnStillRunningWhenTheGraceEndsIsLeftToTheNextProcessWhichAnswersItOnce()
      throws Exception {
    start(1);
    assertThat(deliver("Ev1", "a slow one").statusCode()).isEqualTo(200);
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();

    legio.server.close(); // never released: the turn outlasts the 1 s grace

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    Thread.sleep(300);
    assertThat(answers()).as("Slack's user is not told the note").isEmpty();
    assertThat(legio.app.store().gatewayInbox().kept("slack"))
        .as("the message stays for the next process")
        .hasSize(1);

    release.countDown(); // the next process's model answers at once
    legio.restart();

    assertThat(slack.nextPost().params()).containsEntry("text", "the model's answer");
    // the reply is forgotten once Slack took it
    await(() -> legio.app.store().gatewayState().pending("slack").isEmpty());
    assertThat(slack.postWithin(Duration.ofMillis(500))).as("answered once").isNull();
    assertThat(answers()).containsExactly("the model's answer");
    assertThat(legio.app.store().gatewayInbox().kept("slack")).isEmpty();
    assertThat(legio.app.messageLog().history(100))
        .filteredOn(m -> m.sender().equals("slack:C123"))
        .as("the request logged once")
        .hasSize(1);
  }
}
