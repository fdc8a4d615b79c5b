package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.ContextUse;
import dev.legio.backend.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TurnListenerQueueTest {
  private static final UUID SESSION = UUID.randomUUID();

  private static CompletedTurn completed(String reply) {
    return CompletedTurn.builder("vorenus", SESSION)
        .sent("request")
        .reply(reply)
        .model("offline")
        .usage(Usage.NONE)
        .at(Instant.EPOCH)
        .backendKind("offline")
        .context(ContextUse.of(0, 0))
        .duration(Duration.ofMillis(1))
        .build();
  }

  private static FailedTurn failed(String owner) {
    return FailedTurn.builder(owner, SESSION)
        .model("offline")
        .backendKind("offline")
        .at(Instant.EPOCH)
        .duration(Duration.ofMillis(1))
        .cause(FailedTurn.Cause.ERROR)
        .build();
  }

  /** Records what it is told, as "C:reply" per completed turn and "F:owner" per failed one. */
  private static final class Recorder implements TurnListener {
    final List<List<String>> calls = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch firstCall = new CountDownLatch(1);
    final CountDownLatch release;

    Recorder(CountDownLatch release) {
      this.release = release;
    }

    @Override
    public void turnCompleted(CompletedTurn turn) {
      calls.add(List.of("C:" + turn.reply()));
      holdTheFirst();
    }

    @Override
    public void turnsCompleted(List<CompletedTurn> turns) {
      calls.add(turns.stream().map(t -> "C:" + t.reply()).toList());
      holdTheFirst();
    }

    @Override
    public void turnFailed(FailedTurn turn) {
      calls.add(List.of("F:" + turn.owner()));
      holdTheFirst();
    }

    private void holdTheFirst() {
      if (firstCall.getCount() > 0) {
        firstCall.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Test
  void turnsThatEndWhileTheListenerIsBusyAreToldTogetherInOrder() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Recorder recorder = new Recorder(release);
    TurnListenerQueue queue = new TurnListenerQueue(recorder, 100);
    queue.completed(completed("1"));
    assertThat(recorder.firstCall.await(5, TimeUnit.SECONDS)).isTrue();
    for (int i = 2; i <= 11; i++) {
      queue.completed(completed(Integer.toString(i)));
    }
    release.countDown();
    queue.close(Duration.ofSeconds(5));

    assertThat(recorder.calls)
        .containsExactly(
            List.of("C:1"),
            List.of("C:2", "C:3", "C:4", "C:5", "C:6", "C:7", "C:8", "C:9", "C:10", "C:11"));
  }

  @Test
  void awaitingTheTurnsToldWaitsForEveryTurnQueuedBeforeIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Recorder recorder = new Recorder(release);
    TurnListenerQueue queue = new TurnListenerQueue(recorder, 100);
    assertThat(queue.awaitTold(Duration.ZERO)).as("nothing queued").isTrue();
    queue.completed(completed("1"));
    assertThat(recorder.firstCall.await(5, TimeUnit.SECONDS)).isTrue();
    queue.completed(completed("2"));

    assertThat(queue.awaitTold(Duration.ofMillis(100))).as("the listener still holds").isFalse();
    release.countDown();
    assertThat(queue.awaitTold(Duration.ofSeconds(5))).isTrue();
    assertThat(recorder.calls).containsExactly(List.of("C:1"), List.of("C:2"));
    queue.close(Duration.ofSeconds(5));
  }

  @Test
  void aFailedTurnEndsARunOfCompletedOnesAndTheOrderIsKept() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Recorder recorder = new Recorder(release);
    TurnListenerQueue queue = new TurnListenerQueue(recorder, 100);
    queue.completed(completed("1"));
    assertThat(recorder.firstCall.await(5, TimeUnit.SECONDS)).isTrue();
    queue.completed(completed("2"));
    queue.completed(completed("3"));
    queue.failed(failed("pullo"));
    queue.completed(completed("5"));
    release.countDown();
    queue.close(Duration.ofSeconds(5));

    assertThat(recorder.calls)
        .containsExactly(List.of("C:1"), List.of("C:2", "C:3"), List.of("F:pullo"), List.of("C:5"));
  }

  @Test
  void aTurnThatFindsTheQueueFullWaitsForRoomInsteadOfGrowingIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Recorder recorder = new Recorder(release);
    TurnListenerQueue queue = new TurnListenerQueue(recorder, 2);
    queue.completed(completed("1"));
    assertThat(recorder.firstCall.await(5, TimeUnit.SECONDS)).isTrue();
    queue.completed(completed("2"));
    queue.completed(completed("3"));
    CountDownLatch fourthQueued = new CountDownLatch(1);
    Thread fourth =
        Thread.ofVirtual()
            .start(
                () -> {
                  queue.completed(completed("4"));
                  fourthQueued.countDown();
                });

    // The queue holds 2 and the listener is busy: the fourth turn waits.
    assertThat(fourthQueued.await(300, TimeUnit.MILLISECONDS)).isFalse();
    release.countDown();
    assertThat(fourthQueued.await(5, TimeUnit.SECONDS)).isTrue();
    fourth.join();
    queue.close(Duration.ofSeconds(5));
    assertThat(recorder.calls.stream().flatMap(List::stream))
        .containsExactly("C:1", "C:2", "C:3", "C:4");
  }

  @Test
  void closingTellsWhatIsQueuedAndALaterTurnIsToldOnItsOwnThread() {
    List<String> told = Collections.synchronizedList(new ArrayList<>());
    TurnListenerQueue queue =
        new TurnListenerQueue(
            turn -> told.add(turn.reply() + "@" + Thread.currentThread().getName()), 100);
    queue.completed(completed("queued"));
    queue.close(Duration.ofSeconds(5));

    queue.completed(completed("late"));

    assertThat(told).hasSize(2);
    assertThat(told.get(0)).startsWith("queued@");
    assertThat(told.get(1)).isEqualTo("late@" + Thread.currentThread().getName());
  }

  @Test
  void aListenerThatThrowsIsLoggedAndTheNextTurnsAreStillTold() {
    List<String> told = Collections.synchronizedList(new ArrayList<>());
    TurnListenerQueue queue =
        new TurnListenerQueue(
            turn -> {
              if (turn.reply().equals("boom")) {
                throw new IllegalStateException("disk full");
              }
              told.add(turn.reply());
            },
            100);
    queue.completed(completed("boom"));
    queue.completed(completed("after"));
    queue.close(Duration.ofSeconds(5));

    assertThat(told).containsExactly("after");
  }
}
