package dev.legio.app.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.ContextUse;
import org.junit.jupiter.api.Test;

class ContextFiguresTest {
  @Test
  void theShareOfTheWindowIsRoundedAndTheWindowShortened() {
    assertThat(ContextFigures.describe(ContextUse.of(84_000, 200_000))).isEqualTo("42% of 200K");
    assertThat(ContextFigures.describe(ContextUse.of(84_999, 200_000))).isEqualTo("42% of 200K");
    assertThat(ContextFigures.describe(ContextUse.of(85_000, 200_000))).isEqualTo("43% of 200K");
    assertThat(ContextFigures.describe(ContextUse.of(500, 200_000))).isEqualTo("<1% of 200K");
    assertThat(ContextFigures.describe(ContextUse.of(0, 8_192))).isEqualTo("0% of 8K");
    assertThat(ContextFigures.describe(ContextUse.of(208_000, 200_000))).isEqualTo("104% of 200K");
    assertThat(ContextFigures.describe(ContextUse.of(1, 1_047_576))).isEqualTo("<1% of 1M");
    assertThat(ContextFigures.describe(ContextUse.of(1, 1_500_000))).isEqualTo("<1% of 1.5M");
    assertThat(ContextFigures.describe(ContextUse.of(1, 0))).isEqualTo("-");
    assertThat(ContextFigures.describe(null)).isEqualTo("-");
  }

  @Test
  void onlyADisabledAutoCompactGetsANote() {
    assertThat(ContextFigures.compactionNote(new ContextUse(1, 2, 3, true)))
        .startsWith("auto-compact off after 3 failures");
    assertThat(ContextFigures.compactionNote(new ContextUse(1, 2, 1, true)))
        .startsWith("auto-compact off after 1 failure ");
    assertThat(ContextFigures.compactionNote(new ContextUse(1, 2, 2, false))).isNull();
    assertThat(ContextFigures.compactionNote(null)).isNull();
  }
}
