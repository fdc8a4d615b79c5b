package dev.legio.app.gateway.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AllowedMentionsTest {
  private static String json(AllowedMentions pings) {
    return DiscordApi.message("hi", pings).path("allowed_mentions").toString();
  }

  @Test
  void nobodyParsesNothingAndNamesNoUser() {
    assertThat(json(AllowedMentions.NOBODY)).isEqualTo("{\"parse\":[]}");
  }

  @Test
  void oneUserIsNamedAsASnowflakeStringAndNothingIsParsed() {
    assertThat(json(AllowedMentions.only("123456789012345678")))
        .isEqualTo("{\"parse\":[],\"users\":[\"123456789012345678\"]}");
  }

  @Test
  void anIdThatIsNoSnowflakePingsNoOne() {
    for (String id :
        new String[] {null, "", "<@42>", "42,43", "-42", "1".repeat(21), "\u0664\u0662"}) {
      assertThat(AllowedMentions.only(id)).as(String.valueOf(id)).isEqualTo(AllowedMentions.NOBODY);
    }
    assertThatThrownBy(() -> new AllowedMentions("everyone"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
