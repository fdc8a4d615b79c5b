package dev.legio.store.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.LeaseHolder;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link GatewayStateStore} and {@link PollerLease}, run on SQLite and PostgreSQL by
 * the subclasses.
 */
public abstract class GatewayStateStoreContract {
  protected final MutableClock clock = MutableClock.at("2026-11-23T10:00:00Z");
  private LegioStore store;
  private GatewayStateStore state;

  /** Opens a store on the database under test (the same one when called again). */
  protected abstract LegioStore open(MutableClock clock);

  protected void afterStoreClosed() {}

  @BeforeEach
  void openStore() {
    store = open(clock);
    state = store.gatewayState();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
    afterStoreClosed();
  }

  @Test
  void theOffsetStartsAtZeroAndNeverGoesBack() {
    assertThat(state.nextOffset("telegram")).isZero();
    state.commitTurn("telegram", 42, List.of(), clock.instant());
    assertThat(state.nextOffset("telegram")).isEqualTo(42);
    state.commitTurn("telegram", 40, List.of(), clock.instant());
    assertThat(state.nextOffset("telegram")).isEqualTo(42);
    assertThat(state.nextOffset("slack")).isZero();
  }

  @Test
  void owedRepliesAreStoredWithTheOffsetAndForgottenOnceSent() {
    state.commitTurn(
        "telegram",
        7,
        List.of(
            new GatewayStateStore.Outbound(0, "-100", "first <b>part</b>"),
            new GatewayStateStore.Outbound(0, "-100", "second part")),
        clock.instant());
    state.commitTurn(
        "slack", 3, List.of(new GatewayStateStore.Outbound(0, "C1", "other")), clock.instant());
    List<GatewayStateStore.Outbound> owed = state.pending("telegram");
    assertThat(owed)
        .extracting(GatewayStateStore.Outbound::text)
        .containsExactly("first <b>part</b>", "second part");
    assertThat(owed).extracting(GatewayStateStore.Outbound::chatId).containsOnly("-100");
    state.sent(owed.get(0).id());
    assertThat(state.pending("telegram"))
        .extracting(GatewayStateStore.Outbound::text)
        .containsExactly("second part");
    assertThat(state.pending("slack")).hasSize(1);
  }

  @Test
  void repliesOwedWithoutAnOffsetKeepTheirThreadWhomTheyPingAndOrderAndLeaveTheOffsetAlone() {
    state.commitTurn("slack", 4, List.of(), clock.instant());
    state.owe(
        "slack",
        List.of(
            new GatewayStateStore.Outbound(0, "C1", "1700.0001", "in the thread"),
            new GatewayStateStore.Outbound(0, "C1", "1700.0001", "its second part"),
            new GatewayStateStore.Outbound(0, "D2", null, "to the chat, pinging", "42")),
        clock.instant());
    state.owe("slack", List.of(), clock.instant());
    assertThat(state.pending("slack"))
        .extracting(
            GatewayStateStore.Outbound::chatId,
            GatewayStateStore.Outbound::thread,
            GatewayStateStore.Outbound::text,
            GatewayStateStore.Outbound::pingUser)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("C1", "1700.0001", "in the thread", null),
            org.assertj.core.groups.Tuple.tuple("C1", "1700.0001", "its second part", null),
            org.assertj.core.groups.Tuple.tuple("D2", null, "to the chat, pinging", "42"));
    assertThat(state.nextOffset("slack")).isEqualTo(4);
    assertThat(state.pending("telegram")).isEmpty();
  }

  @Test
  void theOffsetAndOwedRepliesSurviveReopening() {
    state.commitTurn(
        "telegram", 9, List.of(new GatewayStateStore.Outbound(0, "1", "owed")), clock.instant());
    store.close();
    store = open(clock);
    state = store.gatewayState();
    assertThat(state.nextOffset("telegram")).isEqualTo(9);
    assertThat(state.pending("telegram"))
        .extracting(GatewayStateStore.Outbound::text)
        .containsExactly("owed");
  }

  @Test
  void oneHolderPollsAtATimeAndAnotherTakesOverWhenItStopsRenewing() {
    Duration ttl = Duration.ofSeconds(30);
    PollerLease a = new PollerLease(store.jobLeases(), "telegram", "node-a", ttl, clock);
    PollerLease b = new PollerLease(store.jobLeases(), "telegram", "node-b", ttl, clock);
    assertThat(a.hold()).isTrue();
    assertThat(b.hold()).isFalse();
    clock.advance(Duration.ofSeconds(20));
    assertThat(a.hold()).as("renewed").isTrue();
    clock.advance(Duration.ofSeconds(20));
    assertThat(b.hold()).as("a renewed 20 s ago: still a's").isFalse();
    assertThat(a.holderNow()).contains("node-a");
    // a dies: nobody renews
    clock.advance(Duration.ofSeconds(31));
    assertThat(b.hold()).as("taken over within a minute").isTrue();
    assertThat(a.hold()).isFalse();
    assertThat(b.holderNow()).contains("node-b");
  }

  @Test
  void aReleasedLeaseIsFreeAtOnce() {
    PollerLease a =
        new PollerLease(store.jobLeases(), "telegram", "node-a", Duration.ofSeconds(30), clock);
    PollerLease b =
        new PollerLease(store.jobLeases(), "telegram", "node-b", Duration.ofSeconds(30), clock);
    assertThat(a.hold()).isTrue();
    b.release(); // not b's: nothing happens
    assertThat(b.hold()).isFalse();
    a.release();
    assertThat(b.holderNow()).isEmpty();
    assertThat(b.hold()).isTrue();
  }

  @Test
  void healthReportsAreReadBackByGateway() {
    assertThat(state.reports()).isEmpty();
    state.commitTurn("telegram", 5, List.of(), clock.instant()); // a row without a report
    assertThat(state.reports()).isEmpty();
    state.report(new GatewayReport("telegram", "failing", "token refused", 3, 4, clock.instant()));
    state.report(new GatewayReport("discord", "connected", "", 0, 1, clock.instant()));
    clock.advance(Duration.ofSeconds(10));
    state.report(new GatewayReport("telegram", "connected", "", 5, 6, clock.instant()));
    assertThat(state.reports())
        .containsExactly(
            new GatewayReport("discord", "connected", "", 0, 1, clock.instant().minusSeconds(10)),
            new GatewayReport("telegram", "connected", "", 5, 6, clock.instant()));
    assertThat(state.nextOffset("telegram")).isEqualTo(5);
  }

  @Test
  void thePartsOfOneReplyStayTogetherWhileTwoNodesOweRepliesAtOnce() throws Exception {
    int threadsPerNode = 2;
    int rounds = 60;
    int parts = 3;
    LegioStore other = open(clock);
    List<LegioStore> nodes = List.of(store, other);
    int threads = nodes.size() * threadsPerNode;
    CyclicBarrier atOnce = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        LegioStore node = nodes.get(t % nodes.size());
        String writer = "t" + t;
        // half the threads owe directly (a webhook's reply), half answer a message taken in
        boolean fromInbox = t >= nodes.size();
        GatewayInbox.Claimant claimant =
            new GatewayInbox.Claimant("inbox-" + writer, new LeaseHolder("node-" + writer, 100));
        done.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    String reply = writer + " r" + r;
                    List<GatewayStateStore.Outbound> owed = new ArrayList<>();
                    for (int p = 0; p < parts; p++) {
                      owed.add(new GatewayStateStore.Outbound(0, "C1", reply + " part " + p));
                    }
                    long id =
                        fromInbox
                            ? node.gatewayInbox()
                                .takeIn(
                                    new GatewayInbox.Message(
                                        "slack", reply, "slack:C1", "C1", null, "U1", "Ada", "hi"),
                                    List.of(reply),
                                    Duration.ofDays(1),
                                    claimant,
                                    clock.instant(),
                                    clock.instant().plusSeconds(30))
                            : 0;
                    atOnce.await();
                    if (fromInbox) {
                      assertThat(node.gatewayInbox().answer(id, claimant, owed, clock.instant()))
                          .isTrue();
                    } else {
                      node.gatewayState().owe("slack", owed, clock.instant());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
      other.close();
    }

    List<String> texts =
        state.pending("slack").stream().map(GatewayStateStore.Outbound::text).toList();
    assertThat(texts).hasSize(threads * rounds * parts);
    List<String> together = new ArrayList<>(); // each reply's parts in a row, in its order
    for (int i = 0; i < texts.size(); i += parts) {
      String reply = texts.get(i).substring(0, texts.get(i).lastIndexOf(" part "));
      for (int p = 0; p < parts; p++) {
        together.add(reply + " part " + p);
      }
    }
    int apart =
        IntStream.range(0, texts.size())
            .filter(i -> !texts.get(i).equals(together.get(i)))
            .findFirst()
            .orElse(-1);
    assertThat(apart)
        .as(
            "the first part away from the rest of its reply; the outbox there: %s",
            apart < 0 ? List.of() : texts.subList(Math.max(0, apart - parts), apart + 1))
        .isEqualTo(-1);
  }
}
