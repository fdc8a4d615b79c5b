package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link ChannelListing}: which channels a status lists, and how the rest are counted. */
class ChannelListingTest {
  private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
  private static final Duration IDLE = Duration.ofMinutes(30);

  private static SessionStatus channel(
      String owner, String activity, Duration unusedFor, SessionRecord.State state) {
    Instant last = NOW.minus(unusedFor);
    SessionRecord r =
        new SessionRecord(
            owner,
            UUID.randomUUID(),
            "offline",
            null,
            "hash",
            null,
            0,
            0,
            1,
            0,
            last.minus(Duration.ofMinutes(1)),
            last,
            last.plus(Duration.ofDays(30)),
            state,
            state == SessionRecord.State.CLOSED ? "idle" : null,
            0,
            null);
    return new SessionStatus(owner, "channel", activity, r, null);
  }

  private static SessionStatus open(String owner, Duration unusedFor) {
    return channel(owner, "idle", unusedFor, SessionRecord.State.ACTIVE);
  }

  @Test
  void aChannelIsOpenWhileWorkingOrActiveAndUsedWithinTheIdleTimeout() {
    assertThat(ChannelListing.isOpen(open("telegram:1", Duration.ZERO), NOW, IDLE)).isTrue();
    assertThat(ChannelListing.isOpen(open("telegram:2", IDLE), NOW, IDLE)).isTrue();
    assertThat(ChannelListing.isOpen(open("telegram:3", IDLE.plusSeconds(1)), NOW, IDLE)).isFalse();
    assertThat(
            ChannelListing.isOpen(
                channel("telegram:4", "idle", Duration.ofMinutes(1), SessionRecord.State.CLOSED),
                NOW,
                IDLE))
        .isFalse();
    // A turn on another node (its lease) keeps a channel open however old its record.
    assertThat(
            ChannelListing.isOpen(
                channel("telegram:5", "working", Duration.ofDays(2), SessionRecord.State.ACTIVE),
                NOW,
                IDLE))
        .isTrue();
    assertThat(
            ChannelListing.isOpen(
                channel("telegram:6", "error", Duration.ofDays(2), SessionRecord.State.ACTIVE),
                NOW,
                IDLE))
        .isFalse();
  }

  @Test
  void thousandsOfChatsSeenOnceListOnlyTheOpenOnesAndAreCounted() {
    List<SessionStatus> channels = new ArrayList<>();
    for (int i = 0; i < 3400; i++) {
      channels.add(open("telegram:" + i, Duration.ofHours(2).plusMinutes(i)));
    }
    channels.add(open("telegram:recent", Duration.ofMinutes(5)));
    channels.add(open("slack:C1", Duration.ofMinutes(1)));

    ChannelListing.Listed listed = ChannelListing.DEFAULT.select(channels, NOW, IDLE);

    assertThat(listed.channels())
        .extracting(SessionStatus::owner)
        .containsExactly("slack:C1", "telegram:recent");
    assertThat(listed.all()).isEqualTo(3402);
    assertThat(listed.open()).isEqualTo(2);
    assertThat(listed.listed()).isEqualTo(2);
  }

  @Test
  void allListsEveryChannelTheMostRecentlyUsedFirstUpToTheLimit() {
    List<SessionStatus> channels =
        List.of(
            open("telegram:old", Duration.ofDays(3)),
            channel("telegram:closed", "idle", Duration.ofHours(1), SessionRecord.State.CLOSED),
            open("telegram:new", Duration.ofMinutes(1)));

    ChannelListing.Listed all =
        new ChannelListing(ChannelListing.Scope.ALL, 100).select(channels, NOW, IDLE);
    assertThat(all.channels())
        .extracting(SessionStatus::owner)
        .containsExactly("telegram:new", "telegram:closed", "telegram:old");
    assertThat(all.open()).isEqualTo(1);

    ChannelListing.Listed two =
        new ChannelListing(ChannelListing.Scope.ALL, 2).select(channels, NOW, IDLE);
    assertThat(two.channels())
        .extracting(SessionStatus::owner)
        .containsExactly("telegram:new", "telegram:closed");
    assertThat(two.all()).isEqualTo(3);
    assertThat(two.listed()).isEqualTo(2);
  }

  @Test
  void aScopeIsOpenOrAllAndTheLimitWithinBounds() {
    assertThat(ChannelListing.Scope.of("all")).isEqualTo(ChannelListing.Scope.ALL);
    assertThatThrownBy(() -> ChannelListing.Scope.of("closed"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'open'")
        .hasMessageContaining("'all'")
        .hasMessageContaining("'closed'");
    assertThatThrownBy(() -> new ChannelListing(ChannelListing.Scope.OPEN, 0))
        .hasMessageContaining("from 1 to 10000");
  }
}
