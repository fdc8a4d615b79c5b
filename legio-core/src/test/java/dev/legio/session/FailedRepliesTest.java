package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What {@link FailedReplies} tells the caller of a turn whose lease another node took over while
 * this node was paused: the request is logged and may have been answered there, so the caller looks
 * before sending it again.
 */
class FailedRepliesTest {
  @Test
  void anAgentsCallerIsToldTheSessionWasTakenOverAndToLookAtTheHistoryFirst() {
    String text = FailedReplies.leaseLostText("vorenus");

    assertThat(text)
        .startsWith("[vorenus] This Legio node paused (or lost its database) for longer than")
        .contains("[sessions] lease_ttl_seconds while the turn ran")
        .contains("another node took the session over meanwhile")
        .contains("this node's reply was not stored")
        .contains("Your message is logged, and the other node may have answered it already")
        .contains(
            "look at the history (legio history, GET /api/v1/history) before sending it again")
        .contains(
            "an API caller may instead send it again under the same Idempotency-Key, which answers")
        .doesNotContain("Your message is logged; send it again.");
  }

  @Test
  void aChannelsOutsiderIsToldInWordsOfTheChat() {
    String text = FailedReplies.leaseLostText("telegram:42");

    assertThat(text)
        .startsWith("[telegram:42] This reply was not kept")
        .contains("another node took this conversation over meanwhile")
        .contains("may have been answered already: look above before sending it again")
        .doesNotContain("lease_ttl_seconds")
        .doesNotContain("/api/v1")
        .doesNotContain("Idempotency-Key");
  }

  @Test
  void anAnswerThatCameBeforeTheLeaseWasFoundLostIsGivenSayingItIsNotInTheHistory() {
    FailedReplies replies = new FailedReplies(null, null, "Offline");

    Reply agent = replies.leaseLost("vorenus", "the scout", "The ford is guarded.");
    Reply channel = replies.leaseLost("telegram:42", "", "The ford is guarded.");

    assertThat(agent.failed()).isTrue();
    assertThat(agent.text())
        .startsWith("[vorenus] This Legio node paused (or lost its database) for longer than")
        .contains("another node (or process) took the session over meanwhile")
        .contains("this reply is not in the history")
        .contains("the other node may have answered it too")
        .contains(
            "look at the history (legio history, GET /api/v1/history) before sending it again")
        .endsWith("so that you need not send the message again for it:\n\nThe ford is guarded.");
    // An outsider reads answers in the chat, and nothing of Legio's nodes is theirs to act on.
    assertThat(channel.failed()).isTrue();
    assertThat(channel.text()).isEqualTo("The ford is guarded.");
  }
}
