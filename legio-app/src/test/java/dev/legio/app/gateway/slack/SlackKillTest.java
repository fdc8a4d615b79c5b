package dev.legio.app.gateway.slack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.process.LegioProcess;
import dev.legio.app.process.Workspaces;
import dev.legio.testing.FakeMessagesApi;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code legio serve} killed ({@code SIGKILL}) while a Slack message's turn is at the model:
 * Slack had its 200, so it never delivers the message again, and the next {@code legio serve} on
 * the same castra answers it, logging the request once.
 */
class SlackKillTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private FakeMessagesApi model;
  private FakeSlack slack;
  private Path ws;
  private Map<String, String> env;

  @BeforeEach
  void workspaceWithSlackOnAModel() throws Exception {
    model = FakeMessagesApi.start();
    slack = new FakeSlack();
    ws = Workspaces.servingOnModel(dir, "legion", model.baseUrl());
    Workspaces.edit(
        ws,
        "the reply goes back in the message's thread.\nenabled = false",
        "the reply goes back in the message's thread.\nenabled = true");
    Workspaces.edit(
        ws, "api_url = \"https://slack.com/api\"", "api_url = \"" + slack.apiUrl() + "\"");
    env =
        Map.of(
            "ANTHROPIC_API_KEY", "test-key-slack-0000",
            "SLACK_SIGNING_SECRET", SlackRequests.SECRET,
            "SLACK_BOT_TOKEN", FakeSlack.TOKEN);
  }

  @AfterEach
  void stopFakes() {
    model.close();
    slack.close();
  }

  private long messagesRequests() {
    return model.requests().stream().filter(FakeMessagesApi.Request::isMessages).count();
  }

  private long count(String sql) {
    return Workspaces.count(ws, sql);
  }

  @Test
  void aMessageWhoseTurnWasRunningWhenServeWasKilledIsAnsweredByTheNextServeOnce()
      throws Exception {
    model.enqueue(FakeMessagesApi.Reply.hang());
    String event =
        SlackRequests.callback(
            "Ev-killed",
            SlackRequests.mention("C123", "U123", "<@U0BOT> hold the bridge", "1700.0001"));
    try (LegioProcess first = LegioProcess.start(dir, env, "--castra", ws.toString(), "serve")) {
      URI api = first.servingUrl(LIMIT);
      HttpResponse<String> ack =
          LegioProcess.postJson(
              api.resolve(SlackGateway.PATH),
              event,
              SlackRequests.signed(SlackRequests.SECRET, event));
      assertThat(ack.statusCode()).as(ack.body()).isEqualTo(200);
      first.await("the turn at the model", LIMIT, () -> messagesRequests() == 1);
      first.signal("KILL");
      first.awaitExit(LIMIT);
    }
    assertThat(slack.calls("chat.postMessage")).isZero();
    assertThat(count("SELECT count(*) FROM gateway_inbox")).as("kept across the kill").isOne();

    model.enqueue(FakeMessagesApi.Reply.text("The bridge holds."));
    try (LegioProcess second = LegioProcess.start(dir, env, "--castra", ws.toString(), "serve")) {
      second.servingUrl(LIMIT);
      FakeSlack.Call post = slack.nextPost();
      assertThat(post.params())
          .containsEntry("channel", "C123")
          .containsEntry("thread_ts", "1700.0001");
      assertThat(post.params().get("text")).contains("The bridge holds.");
      second.await(
          "the message forgotten", LIMIT, () -> count("SELECT count(*) FROM gateway_inbox") == 0);
      assertThat(count("SELECT count(*) FROM nuntii WHERE sender = 'slack:C123'"))
          .as("the request logged once")
          .isOne();
      assertThat(slack.postWithin(Duration.ofMillis(500))).as("answered once").isNull();
      second.signal("TERM");
      second.awaitExit(LIMIT);
    }
  }
}
