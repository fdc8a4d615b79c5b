package dev.legio.app.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.gateway.GatewayHealth;
import dev.legio.backend.http.HttpFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link ReplyOutbox}, against a platform the test scripts, on an in-memory store. */
class ReplyOutboxTest {
  /** The back-off of these tests: 50 ms, doubling to 200 ms. */
  private static final ReplyOutbox.Backoff FAST =
      new ReplyOutbox.Backoff(Duration.ofMillis(50), Duration.ofMillis(200));

  /** A platform that fails as the test queues and records what it took. */
  private static final class ScriptedPlatform implements ReplyOutbox.Platform {
    final List<String> taken = new CopyOnWriteArrayList<>();
    final Deque<HttpFailure> failures = new ConcurrentLinkedDeque<>();
    final List<Instant> attempts = new CopyOnWriteArrayList<>();

    @Override
    public void send(OwedReply reply) {
      attempts.add(Instant.now());
      HttpFailure f = failures.poll();
      if (f != null) {
        throw f;
      }
      taken.add(reply.chat() + ":" + reply.text());
    }

    @Override
    public boolean keep(HttpFailure failure) {
      return failure.kind().retryable() || failure.kind() == HttpFailure.Kind.AUTH;
    }

    @Override
    public String describe(HttpFailure failure) {
      return "the platform said " + failure.getMessage();
    }
  }

  private final ScriptedPlatform platform = new ScriptedPlatform();
  private final GatewayStatus status = new GatewayStatus("test");
  private final OwedReplies owed = OwedReplies.inMemory();
  private ReplyOutbox outbox;

  private ReplyOutbox start(Clock clock) {
    outbox = new ReplyOutbox("test", owed, platform, status, FAST, clock);
    outbox.start();
    return outbox;
  }

  @AfterEach
  void stop() {
    if (outbox != null) {
      outbox.close();
    }
  }

  private static OwedReply reply(String chat, String text) {
    return new OwedReply(0, chat, null, 0, text, null);
  }

  private static HttpFailure failure(HttpFailure.Kind kind) {
    return HttpFailure.of(kind, kind.name().toLowerCase() + " for the test");
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.sleep(5);
    }
  }

  @Test
  void repliesGoOldestFirstAndAreForgottenOnceTaken() throws Exception {
    start(Clock.systemUTC());
    outbox.owe(List.of(reply("C1", "one"), reply("C1", "two")));
    outbox.owe(List.of(reply("C2", "three")));

    await(() -> platform.taken.size() == 3);
    assertThat(platform.taken).containsExactly("C1:one", "C1:two", "C2:three");
    await(() -> owed.pending().isEmpty());
    assertThat(status.health().messagesOut()).isEqualTo(3);
  }

  @Test
  void aReplyOwedJustBeforeTheCloseIsSentBeforeItReturns() throws Exception {
    for (int round = 0; round < 20; round++) {
      start(Clock.systemUTC());
      Thread.sleep(20); // the outbox waits for a reply

      outbox.owe(List.of(reply("C1", "finished in the drain " + round)));
      outbox.close();

      assertThat(platform.taken)
          .as("round %d", round)
          .contains("C1:finished in the drain " + round);
      assertThat(owed.pending()).isEmpty();
    }
  }

  @Test
  void closingWhileThePlatformIsDownLeavesTheReplyOwedWithinItsBound() throws Exception {
    start(Clock.systemUTC());
    for (int i = 0; i < 1000; i++) {
      platform.failures.add(failure(HttpFailure.Kind.SERVER));
    }
    outbox.owe(List.of(reply("C1", "kept")));
    await(() -> !platform.attempts.isEmpty());
    long began = System.nanoTime();

    outbox.close();

    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(13));
    assertThat(platform.taken).isEmpty();
    assertThat(owed.pending()).extracting(OwedReply::text).containsExactly("kept");
  }

  @Test
  void whatAnEarlierRunOwesIsSentAtStart() throws Exception {
    owed.add(List.of(reply("C1", "owed before the restart")));
    start(Clock.systemUTC());
    await(() -> platform.taken.size() == 1);
    assertThat(platform.taken).containsExactly("C1:owed before the restart");
  }

  @Test
  void aFailureThatMayPassKeepsTheReplyAndItsOrderAndTriesAgainWithAGrowingPause()
      throws Exception {
    for (int i = 0; i < 3; i++) {
      platform.failures.add(failure(HttpFailure.Kind.CONNECT));
    }
    start(Clock.systemUTC());
    outbox.owe(List.of(reply("C1", "first"), reply("C1", "second")));

    await(() -> platform.taken.size() == 2);
    assertThat(platform.taken).as("nothing skipped ahead").containsExactly("C1:first", "C1:second");
    List<Instant> at = new ArrayList<>(platform.attempts);
    assertThat(at).hasSize(5);
    Duration firstPause = Duration.between(at.get(0), at.get(1));
    Duration thirdPause = Duration.between(at.get(2), at.get(3));
    assertThat(firstPause).isGreaterThanOrEqualTo(Duration.ofMillis(45));
    assertThat(thirdPause).as("the pause doubles").isGreaterThanOrEqualTo(Duration.ofMillis(180));
    assertThat(status.state()).isEqualTo(GatewayHealth.State.CONNECTED);
  }

  @Test
  void whileBlockedTheGatewayWaitsAndSaysWhyAndAReplyThatGoesMakesItConnected() throws Exception {
    platform.failures.add(failure(HttpFailure.Kind.SERVER));
    outbox =
        new ReplyOutbox(
            "test",
            owed,
            platform,
            status,
            new ReplyOutbox.Backoff(Duration.ofMillis(500), Duration.ofMillis(500)),
            Clock.systemUTC());
    status.connected();
    outbox.start();
    outbox.owe(List.of(reply("C1", "hello")));

    await(() -> status.state() == GatewayHealth.State.WAITING);
    assertThat(status.health().detail())
        .contains("kept and sent again")
        .contains("the platform said server for the test");
    assertThat(owed.pending()).hasSize(1);
    await(() -> status.state() == GatewayHealth.State.CONNECTED);
    assertThat(platform.taken).containsExactly("C1:hello");
  }

  @Test
  void aRefusedCredentialMakesItFailingAndKeepsTheReply() throws Exception {
    platform.failures.add(failure(HttpFailure.Kind.AUTH));
    start(Clock.systemUTC());
    outbox.owe(List.of(reply("C1", "hello")));

    await(() -> platform.taken.size() == 1);
    assertThat(platform.attempts).as("kept, and sent at the next round").hasSize(2);
    // A refused credential is not proved fixed by a reply that went: the gateway stays failing.
    assertThat(status.state()).isEqualTo(GatewayHealth.State.FAILING);
    assertThat(status.health().detail())
        .contains("kept and sent again")
        .contains("the platform said auth for the test");
  }

  @Test
  void aFailingGatewayStaysFailingWhenAReplyGoes() throws Exception {
    status.failing("set DISCORD_BOT_TOKEN");
    start(Clock.systemUTC());
    outbox.owe(List.of(reply("C1", "hello")));

    await(() -> platform.taken.size() == 1);
    Thread.sleep(50);
    assertThat(status.state()).isEqualTo(GatewayHealth.State.FAILING);
    assertThat(status.health().detail()).isEqualTo("set DISCORD_BOT_TOKEN");
  }

  @Test
  void aReplyRefusedForGoodIsDroppedAndTheNextOnesStillGo() throws Exception {
    platform.failures.add(failure(HttpFailure.Kind.REQUEST));
    status.connected();
    start(Clock.systemUTC());
    outbox.owe(List.of(reply("GONE", "lost"), reply("C1", "delivered")));

    await(() -> platform.taken.size() == 1);
    assertThat(platform.taken).containsExactly("C1:delivered");
    assertThat(platform.attempts).hasSize(2);
    await(() -> owed.pending().isEmpty());
    assertThat(status.state()).isEqualTo(GatewayHealth.State.CONNECTED);
  }

  @Test
  void aReplyPastItsDeadlineIsDroppedUntried() throws Exception {
    Instant now = Instant.parse("2026-11-27T10:00:00Z");
    start(Clock.fixed(now, ZoneOffset.UTC));
    outbox.owe(
        List.of(
            new OwedReply(0, "C1", "tok", 0, "too late", now.minusSeconds(1)),
            new OwedReply(0, "C1", "tok", 1, "in time", now.plusSeconds(60))));

    await(() -> platform.taken.size() == 1);
    assertThat(platform.taken).containsExactly("C1:in time");
    assertThat(platform.attempts).hasSize(1);
  }

  @Test
  void whileAnotherNodeSendsThisOneSendsNothingAndLooksAgain() throws Exception {
    OwedReplies shared = OwedReplies.inMemory();
    java.util.concurrent.atomic.AtomicBoolean othersTurn =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    OwedReplies taken =
        new OwedReplies() {
          @Override
          public void add(List<OwedReply> replies) {
            shared.add(replies);
          }

          @Override
          public List<OwedReply> pending() {
            return shared.pending();
          }

          @Override
          public void forget(long id) {
            shared.forget(id);
          }

          @Override
          public boolean takeTurn() {
            return !othersTurn.get();
          }
        };
    outbox = new ReplyOutbox("test", taken, platform, status, FAST, Clock.systemUTC());
    outbox.start();
    outbox.owe(List.of(reply("C1", "hello")));
    Thread.sleep(200);
    assertThat(platform.attempts).isEmpty();

    othersTurn.set(false);
    await(() -> platform.taken.size() == 1);
  }

  @Test
  void closingStopsSendingAndLeavesWhatIsOwedInTheStore() throws Exception {
    for (int i = 0; i < 100; i++) {
      platform.failures.add(failure(HttpFailure.Kind.TIMEOUT));
    }
    start(Clock.systemUTC());
    outbox.owe(List.of(reply("C1", "kept")));
    await(() -> !platform.attempts.isEmpty());

    outbox.close();
    int tries = platform.attempts.size();
    Thread.sleep(300);
    assertThat(platform.attempts).hasSize(tries);
    assertThat(outbox.owedCount()).isEqualTo(1);
  }
}
