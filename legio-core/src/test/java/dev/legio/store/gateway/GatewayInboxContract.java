package dev.legio.store.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.LeaseHolder;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link GatewayInbox}, run on SQLite and PostgreSQL by the subclasses. */
public abstract class GatewayInboxContract {
  private static final Duration KEEP = Duration.ofDays(1);
  private static final Duration CLAIM = Duration.ofSeconds(30);

  protected final MutableClock clock = MutableClock.at("2026-11-23T10:00:00Z");
  private LegioStore store;
  private GatewayInbox inbox;
  private final GatewayInbox.Claimant a =
      new GatewayInbox.Claimant("inbox-a", new LeaseHolder("node-a", 101));
  private final GatewayInbox.Claimant b =
      new GatewayInbox.Claimant("inbox-b", new LeaseHolder("node-b", 202));

  /** Opens a store on the database under test (the same one when called again). */
  protected abstract LegioStore open(MutableClock clock);

  protected void afterStoreClosed() {}

  @BeforeEach
  void openStore() {
    store = open(clock);
    inbox = store.gatewayInbox();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
    afterStoreClosed();
  }

  private static GatewayInbox.Message message(String ts, String text) {
    return new GatewayInbox.Message(
        "slack", "C1 " + ts, "slack:C1", "C1", ts, "U1", "Ada <\"&'>", text);
  }

  private long takeIn(GatewayInbox.Message m, GatewayInbox.Claimant by, String... deliveryIds) {
    return inbox.takeIn(
        m, List.of(deliveryIds), KEEP, by, clock.instant(), clock.instant().plus(CLAIM));
  }

  private Instant later() {
    return clock.instant().plus(CLAIM);
  }

  @Test
  void aMessageIsTakenInOnceWhateverDeliversItAgain() {
    long id = takeIn(message("1.1", "hello"), a, "Ev1", "message C1 1.1");
    assertThat(id).isPositive();
    assertThat(takeIn(message("1.1", "hello"), b, "Ev1")).as("the same event again").isZero();
    assertThat(takeIn(message("1.1", "hello"), b, "Ev2"))
        .as("another event of the same message, while it is kept")
        .isZero();
    assertThat(inbox.kept("slack"))
        .singleElement()
        .satisfies(
            k -> {
              assertThat(k.id()).isEqualTo(id);
              assertThat(k.message()).isEqualTo(message("1.1", "hello"));
              assertThat(k.claimant()).isEqualTo(a);
            });
    assertThat(store.deliveries().firstDelivery("slack", "Ev1", clock.instant(), KEEP))
        .as("its delivery ids are recorded with it")
        .isFalse();

    assertThat(inbox.answer(id, a, List.of(), clock.instant())).isTrue();
    assertThat(takeIn(message("1.1", "hello"), b, "Ev1", "message C1 1.1"))
        .as("answered, its deliveries are still remembered")
        .isZero();
    assertThat(inbox.kept("slack")).isEmpty();

    clock.advance(KEEP.plusSeconds(1));
    assertThat(takeIn(message("1.1", "hello"), b, "Ev1", "message C1 1.1"))
        .as("once their records expired, the ids count as new")
        .isPositive();
  }

  @Test
  void anAnswerKeepsItsRepliesAndForgetsTheMessageInOneTransaction() {
    long id = takeIn(message("1.1", "hello"), a, "Ev1");
    takeIn(message("1.2", "other"), a, "Ev2");

    assertThat(
            inbox.answer(
                id,
                a,
                List.of(
                    new GatewayStateStore.Outbound(0, "C1", "1.1", "first part", "42"),
                    new GatewayStateStore.Outbound(0, "C1", "1.1", "second part")),
                clock.instant()))
        .isTrue();

    assertThat(store.gatewayState().pending("slack"))
        .extracting(
            GatewayStateStore.Outbound::thread,
            GatewayStateStore.Outbound::text,
            GatewayStateStore.Outbound::pingUser)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("1.1", "first part", "42"),
            org.assertj.core.groups.Tuple.tuple("1.1", "second part", null));
    assertThat(inbox.kept("slack")).extracting(k -> k.message().text()).containsExactly("other");
    assertThat(
            inbox.answer(
                id, a, List.of(new GatewayStateStore.Outbound(0, "C1", "x")), clock.instant()))
        .as("answered once")
        .isFalse();
    assertThat(store.gatewayState().pending("slack")).hasSize(2);
  }

  @Test
  void aClaimRenewedIsNoOrphanAndOneThatRanOutIsTakenOverByOneProcessAlone() {
    long id = takeIn(message("1.1", "hello"), a, "Ev1");
    assertThat(inbox.orphans("slack", b, clock.instant())).isEmpty();

    clock.advance(Duration.ofSeconds(20));
    assertThat(inbox.renew(a, later())).isOne();
    clock.advance(Duration.ofSeconds(20));
    assertThat(inbox.orphans("slack", b, clock.instant())).as("renewed 20 s ago").isEmpty();

    clock.advance(CLAIM);
    List<GatewayInbox.Kept> orphans = inbox.orphans("slack", b, clock.instant());
    assertThat(orphans).extracting(GatewayInbox.Kept::id).containsExactly(id);
    assertThat(inbox.orphans("slack", a, clock.instant()))
        .as("never an orphan to its own claimant")
        .isEmpty();
    GatewayInbox.Claimant c = new GatewayInbox.Claimant("inbox-c", new LeaseHolder("node-c", 3));
    assertThat(inbox.takeOver(orphans.get(0), b, later())).isTrue();
    assertThat(inbox.takeOver(orphans.get(0), c, later())).as("taken over once").isFalse();
    assertThat(inbox.orphans("slack", c, clock.instant())).as("b's claim is fresh").isEmpty();

    assertThat(
            inbox.answer(
                id, a, List.of(new GatewayStateStore.Outbound(0, "C1", "late")), clock.instant()))
        .as("a lost its claim: its answer is not kept")
        .isFalse();
    assertThat(store.gatewayState().pending("slack")).isEmpty();
    assertThat(
            inbox.answer(
                id, b, List.of(new GatewayStateStore.Outbound(0, "C1", "b's")), clock.instant()))
        .isTrue();
    assertThat(store.gatewayState().pending("slack"))
        .extracting(GatewayStateStore.Outbound::text)
        .containsExactly("b's");
  }

  @Test
  void anEndedProcessOnThisHostOrAnEarlierOneWithThisPidLeavesOrphansAtOnce() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    GatewayInbox.Claimant dead =
        new GatewayInbox.Claimant(
            "inbox-dead", new LeaseHolder(LeaseHolder.thisProcess().host(), ended.pid()));
    GatewayInbox.Claimant earlier =
        new GatewayInbox.Claimant("inbox-earlier", LeaseHolder.thisProcess());
    GatewayInbox.Claimant alive =
        new GatewayInbox.Claimant("inbox-alive", new LeaseHolder("another-host", 7));
    takeIn(message("1.1", "of a dead process"), dead, "Ev1");
    takeIn(message("1.2", "of this pid's earlier process"), earlier, "Ev2");
    takeIn(message("1.3", "of a live node"), alive, "Ev3");

    GatewayInbox.Claimant me = GatewayInbox.Claimant.thisProcess();
    assertThat(inbox.orphans("slack", me, clock.instant()))
        .extracting(k -> k.message().text())
        .containsExactly("of a dead process", "of this pid's earlier process");
  }

  @Test
  void messagesSurviveReopening() {
    takeIn(message("1.1", "kept"), a, "Ev1");
    store.close();
    store = open(clock);
    inbox = store.gatewayInbox();
    assertThat(inbox.kept("slack")).extracting(k -> k.message().text()).containsExactly("kept");
    assertThat(inbox.kept("telegram")).isEmpty();
  }
}
