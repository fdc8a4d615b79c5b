package dev.legio.app.gateway.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.legio.backend.http.HttpFailure;
import org.junit.jupiter.api.Test;

/** {@link SlackApi} through Slack's SDK against the loopback Web API. */
class SlackApiTest {
  @Test
  void aProxysPageIsAServerFailureToRetryNotARefusal() throws Exception {
    try (FakeSlack slack = new FakeSlack();
        SlackApi api = new SlackApi(slack.apiUrl(), FakeSlack.TOKEN)) {
      for (int status : new int[] {403, 404, 200}) {
        slack.proxyPages.add(new FakeSlack.Failure(status, null));

        HttpFailure failure =
            catchThrowableOfType(
                HttpFailure.class, () -> api.postMessage("C1", null, "the answer"));

        assertThat(failure.kind()).as(failure.getMessage()).isEqualTo(HttpFailure.Kind.SERVER);
        assertThat(failure.kind().retryable()).isTrue();
        assertThat(failure.getMessage())
            .contains("answered HTTP " + status + ", but not as Slack's Web API does")
            .contains("[gateways.slack] api_url")
            .doesNotContain(FakeSlack.TOKEN);
      }
      api.postMessage("C1", null, "the answer"); // the proxy gone, Slack takes it
      assertThat(slack.nextPost().params()).containsEntry("text", "the answer");
    }
  }

  @Test
  void slacksOwnRefusalStaysOne() throws Exception {
    try (FakeSlack slack = new FakeSlack();
        SlackApi api = new SlackApi(slack.apiUrl(), FakeSlack.TOKEN)) {
      slack.goneChannels.add("C1");

      HttpFailure failure =
          catchThrowableOfType(HttpFailure.class, () -> api.postMessage("C1", null, "x"));

      assertThat(failure.kind()).isEqualTo(HttpFailure.Kind.REQUEST);
      assertThat(failure.getMessage()).contains("channel_not_found");
    }
  }
}
