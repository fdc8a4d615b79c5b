package dev.legio.app.gateway.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.legio.app.gateway.webhook.OwedReply;
import dev.legio.backend.http.HttpFailure;
import dev.legio.store.gateway.GatewayInbox;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelAnswerTest {
  @Test
  void theIntroNeverCutsACharacterOutsideTheBmpInHalf() {
    String grin = new String(Character.toChars(0x1F600));
    String question =
        "a".repeat(ChannelAnswer.QUOTED_CHARS - 1) + grin + " and more" + "b".repeat(50);

    String intro = ChannelAnswer.intro("42", question);

    assertThat(intro.codePoints().filter(cp -> cp >= 0xD800 && cp <= 0xDFFF))
        .as("no lone surrogate, which reaches Discord as '?'")
        .isEmpty();
    assertThat(intro).endsWith("a …");
  }

  private static GatewayInbox.Message ask(String userId) {
    return new GatewayInbox.Message(
        "discord", "int-1", "discord:99", "99", null, userId, "Ada", "news?");
  }

  @Test
  void onlyTheIntroPingsAndOnlyItsAsker() {
    List<OwedReply> replies =
        ChannelAnswer.of(ask("42"), "<@7> @everyone " + "x".repeat(DiscordGateway.MAX_CHARS));

    assertThat(replies).hasSize(3);
    assertThat(replies).extracting(OwedReply::pingUser).containsExactly("42", null, null);
    assertThat(replies.get(0).text()).startsWith("<@42>, here is the answer");
  }

  @Test
  void anAskerWhoseIdIsNoSnowflakeIsNeitherNamedNorPinged() {
    for (String id : List.of("<@7>", "42 43", "\uFF14\uFF12", "1".repeat(21), "")) {
      List<OwedReply> replies = ChannelAnswer.of(ask(id), "fine");
      assertThat(replies.get(0).pingUser()).as(id).isNull();
      assertThat(replies.get(0).text()).as(id).startsWith("Here is the answer");
    }
    assertThat(ChannelAnswer.of(ask(null), "fine").get(0).pingUser()).isNull();
  }

  @Test
  void aProxysPageIsKeptForLaterNotDroppedAsRefused() throws Exception {
    try (FakeDiscord discord = new FakeDiscord()) {
      DiscordApi api = new DiscordApi(discord.apiUrl(), FakeDiscord.APPLICATION, FakeDiscord.TOKEN);
      ChannelAnswer channel = new ChannelAnswer(api, null, HttpFailure::getMessage);
      discord.proxyPages.set(1);

      HttpFailure page =
          catchThrowableOfType(
              HttpFailure.class, () -> api.createMessage("99", "fine", AllowedMentions.NOBODY));

      assertThat(channel.keep(page)).as(page.getMessage()).isTrue();
      assertThat(page.getMessage())
          .contains("answered HTTP 403, but not as Discord's API does")
          .contains("[gateways.discord] api_url");
      api.createMessage("99", "fine", AllowedMentions.NOBODY); // the next attempt goes through
      assertThat(discord.nextMessage().body().path("content").asText()).isEqualTo("fine");

      discord.closedChannels.add("99"); // Discord's own refusal stays one
      HttpFailure refused =
          catchThrowableOfType(
              HttpFailure.class, () -> api.createMessage("99", "fine", AllowedMentions.NOBODY));
      assertThat(channel.keep(refused)).isFalse();
    }
  }
}
