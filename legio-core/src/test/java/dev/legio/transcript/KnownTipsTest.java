package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KnownTipsTest {
  @TempDir Path dir;

  @Test
  void aTipIsUsedOnlyWhileTheLastPartIsAsTheAppendLeftIt() throws Exception {
    KnownTips tips = new KnownTips();
    Path part = dir.resolve("s.jsonl");
    Files.writeString(part, "{}\n");
    UUID tip = UUID.randomUUID();
    tips.remember("s", KnownTips.PartState.of(part), tip);
    assertThat(tips.tip("s", KnownTips.PartState.of(part))).isEqualTo(new KnownTips.Tip(tip));

    Files.writeString(part, "{}\n{}\n"); // someone else appended
    assertThat(tips.tip("s", KnownTips.PartState.of(part))).isNull();
    assertThat(tips.size()).as("a stale tip is dropped").isZero();

    tips.remember("s", KnownTips.PartState.of(part), null);
    assertThat(tips.tip("s", KnownTips.PartState.of(part)))
        .as("no standing entry is remembered too")
        .isEqualTo(new KnownTips.Tip(null));
    Path next = dir.resolve("s_part2.jsonl");
    Files.writeString(next, "{}\n{}\n");
    assertThat(tips.tip("s", KnownTips.PartState.of(next))).as("another part").isNull();
  }

  @Test
  void atMostCapacitySessionsAreRememberedTheLeastRecentlyUsedForgottenFirst() throws Exception {
    KnownTips tips = new KnownTips();
    Path part = Files.writeString(dir.resolve("p.jsonl"), "{}\n");
    KnownTips.PartState state = KnownTips.PartState.of(part);
    tips.remember("first", state, UUID.randomUUID());
    tips.remember("second", state, UUID.randomUUID());
    for (int i = 0; i < KnownTips.CAPACITY; i++) {
      tips.tip("first", state); // kept in use
      tips.remember("s" + i, state, UUID.randomUUID());
    }
    assertThat(tips.size()).isEqualTo(KnownTips.CAPACITY);
    assertThat(tips.tip("first", state)).isNotNull();
    assertThat(tips.tip("second", state)).isNull();
  }

  @Test
  void aTranscriptDeletedAndStartedAgainChainsFromItsNewStart() {
    FileTranscriptStore store =
        new FileTranscriptStore(dir, dir, MutableClock.at("2026-04-03T10:00:00Z"));
    store.appendToChain("s", (exists, tip) -> List.of(NewEntry.user(tip, "before")));
    store.delete("s");
    store.appendToChain(
        "s",
        (exists, tip) -> {
          assertThat(exists).isFalse();
          assertThat(tip).isNull();
          return List.of(NewEntry.user(tip, "after"));
        });
    assertThat(store.load("s").entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("after");
  }

  @Test
  void anAppendLeavesItsLastMessageAsTheTipAndOneWithATombstoneLeavesNone() throws Exception {
    KnownTips tips = new KnownTips();
    KnownTips.PartState state =
        KnownTips.PartState.of(Files.writeString(dir.resolve("a.jsonl"), "{}\n"));
    UUID before = UUID.randomUUID();
    NewEntry.Message user = NewEntry.user(before, "q");
    NewEntry.Message reply = NewEntry.assistant(user.uuid(), "a", "m");
    tips.appended("s", state, before, List.of(NewEntry.agentName("vorenus"), user, reply));
    assertThat(tips.tip("s", state)).isEqualTo(new KnownTips.Tip(reply.uuid()));

    tips.appended("s", state, before, List.of(NewEntry.agentName("vorenus")));
    assertThat(tips.tip("s", state))
        .as("no chain entry: the tip stays")
        .isEqualTo(new KnownTips.Tip(before));

    tips.appended("s", state, reply.uuid(), List.of(user, NewEntry.tombstone(user.uuid())));
    assertThat(tips.tip("s", state)).as("read from the file next time").isNull();
  }
}
