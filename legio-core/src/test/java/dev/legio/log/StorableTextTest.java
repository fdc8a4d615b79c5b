package dev.legio.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import org.junit.jupiter.api.Test;

class StorableTextTest {
  /**
   * Storable exactly when UTF-8 carries the text there and back unchanged and it holds no NUL; its
   * size then is its UTF-8 length. Strings drawn with surrogates and NULs among ordinary
   * characters.
   */
  @Property(tries = 2000)
  void agreesWithTheJdksUtf8(
      @ForAll
          @Chars({'\u0000', 'a', 'é', '€', '\uD83D', '\uDE00', '\uDC00'})
          @CharRange(from = '\uD800', to = '\uDFFF')
          String text) {
    boolean roundTrips =
        new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(text);
    boolean storable = roundTrips && text.indexOf('\u0000') < 0;

    assertThat(StorableText.firstUnstorable(text) < 0).isEqualTo(storable);
    if (storable) {
      assertThat(StorableText.utf8Length(text))
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void theFirstUnstorableCharacterIsNamedWithItsIndex() {
    String text = "ok \uD83D\uDE00 then \uDC00 and \u0000";
    int bad = StorableText.firstUnstorable(text);
    assertThat(bad).isEqualTo(11);
    assertThat(StorableText.describe(text, bad))
        .isEqualTo("an unpaired surrogate (U+DC00) at index 11");
    assertThat(StorableText.describe("\u0000", 0)).isEqualTo("a NUL character (U+0000) at index 0");
    assertThat(StorableText.firstUnstorable("tail \uD83D")).isEqualTo(5);
  }
}
