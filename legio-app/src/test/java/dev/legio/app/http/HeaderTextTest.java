package dev.legio.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeaderTextTest {
  /** A value as Jetty reads it: each byte of the client's UTF-8 one character. */
  private static String asJettyReadsIt(String sent) {
    return new String(sent.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  @Test
  void aValueSentInUtf8IsQuotedAsTheClientWroteIt() {
    assertThat(HeaderText.quoted(asJettyReadsIt("ключ-1 ✓"))).isEqualTo("ключ-1 ✓");
  }

  @Test
  void aValueWhoseBytesAreNotUtf8IsQuotedAsJettyReadIt() {
    assertThat(HeaderText.quoted("caf\u00e9")).isEqualTo("caf\u00e9");
  }

  @Test
  void controlCharactersAreEscapedEitherWay() {
    assertThat(HeaderText.quoted(asJettyReadsIt("k\u0085ключ"))).isEqualTo("k\\u0085ключ");
    assertThat(HeaderText.quoted("a\u0001b")).isEqualTo("a\\u0001b");
  }
}
