package dev.legio.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.http.BearerHeader.Refusal;
import dev.legio.app.http.BearerHeader.Token;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;

class BearerHeaderTest {
  @Test
  void theSchemeInAnyCaseFollowedBySpacesOrTabsCarriesTheToken() {
    for (String header :
        List.of(
            "Bearer tok",
            "bearer tok",
            "BEARER tok",
            "Bearer\ttok",
            "Bearer \t  tok",
            " Bearer tok\t",
            "bEaReR\t\ttok  ")) {
      assertThat(BearerHeader.of(header)).as(header).isEqualTo(new Token("tok"));
    }
  }

  @Test
  void aHeaderNotOfTheBearerSchemeIsNotBearerNeverAToken() {
    for (String header :
        List.of("tok", "Basic dG9rOng=", "Token tok", "Bearer_tok", "Bearertok", "", "  ")) {
      assertThat(BearerHeader.of(header)).as("'" + header + "'").isEqualTo(Refusal.NOT_BEARER);
    }
  }

  @Test
  void theSchemeAloneHoldsNoToken() {
    for (String header : List.of("Bearer", "bearer", "Bearer ", "Bearer \t ", "\tBEARER\t")) {
      assertThat(BearerHeader.of(header)).as("'" + header + "'").isEqualTo(Refusal.NO_TOKEN);
    }
  }

  @Test
  void theHeadersOfARequestAreMissingOneOrRepeated() {
    assertThat(BearerHeader.of(HttpFields.build().add(HttpHeader.HOST, "x")))
        .isEqualTo(Refusal.MISSING);
    assertThat(
            BearerHeader.of(
                HttpFields.build()
                    .add(HttpHeader.HOST, "x")
                    .add("authorization", "bearer tok")
                    .asImmutable()))
        .isEqualTo(new Token("tok"));
    // Two, even when they agree, and whatever case each name is in.
    assertThat(
            BearerHeader.of(
                HttpFields.build()
                    .add(HttpHeader.AUTHORIZATION, "Bearer tok")
                    .add(HttpHeader.HOST, "x")
                    .add("AUTHORIZATION", "Bearer tok")
                    .asImmutable()))
        .isEqualTo(Refusal.REPEATED);
  }

  @Test
  void nothingItSaysRepeatsTheToken() {
    assertThat(new Token("legio_secret").toString()).doesNotContain("legio_secret");
    for (Refusal refusal : Refusal.values()) {
      assertThat(refusal.advice()).contains("Authorization: Bearer TOKEN");
    }
  }
}
