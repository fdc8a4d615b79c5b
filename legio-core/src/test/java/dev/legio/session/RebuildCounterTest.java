package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RebuildCounterTest {
  @Test
  void countsPerReasonAndPerOwnerTheOwnersRebuiltLastKept() {
    RebuildCounter counter = new RebuildCounter(new SessionEvents());
    counter.count("vorenus", RebuildReason.RESET, 1);
    counter.count("vorenus", RebuildReason.RESET, 2);
    for (int i = 0; i < RebuildCounter.OWNERS_KEPT; i++) {
      counter.count("telegram:" + i, RebuildReason.RESET, 1);
      if (i % 1000 == 0) {
        counter.count("pullo", RebuildReason.RESET, i / 1000 + 1); // rebuilt now and then
      }
    }

    assertThat(counter.snapshot().get(RebuildReason.RESET))
        .as("every rebuild counted")
        .isEqualTo(2 + RebuildCounter.OWNERS_KEPT + 5);
    assertThat(counter.snapshotOf("vorenus")).as("the oldest owner forgotten").isEmpty();
    assertThat(counter.snapshotOf("pullo")).isEqualTo(Map.of(RebuildReason.RESET, 5L));
    assertThat(counter.snapshotOf("telegram:" + (RebuildCounter.OWNERS_KEPT - 1)))
        .isEqualTo(Map.of(RebuildReason.RESET, 1L));
    assertThat(counter.snapshotOf("telegram:0")).as("forgotten to keep pullo's").isEmpty();
  }
}
