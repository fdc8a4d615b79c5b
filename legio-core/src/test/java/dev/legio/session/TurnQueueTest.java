package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TurnQueueTest {

  @Test
  void workRunsInTheOrderPlacesWereTakenWhateverOrderTheThreadsArriveIn() throws Exception {
    TurnQueue queue = new TurnQueue();
    List<TurnQueue.Place> places = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      places.add(queue.enqueue());
    }
    List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    // Start the threads in reverse: the last place's thread arrives first and must still wait.
    for (int i = places.size() - 1; i >= 0; i--) {
      int n = i;
      threads.add(Thread.ofVirtual().start(() -> queue.run(places.get(n), () -> ran.add(n))));
    }
    for (Thread t : threads) {
      t.join(10_000);
    }
    assertThat(ran).hasSize(50).isSorted();
    assertThat(queue.idle()).isTrue();
  }

  @Test
  void onlyOnePieceOfWorkRunsAtATime() throws Exception {
    TurnQueue queue = new TurnQueue();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      threads.add(
          Thread.ofVirtual()
              .start(
                  () ->
                      queue.run(
                          queue.enqueue(),
                          () -> {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.yield();
                            return inside.decrementAndGet();
                          })));
    }
    for (Thread t : threads) {
      t.join(10_000);
    }
    assertThat(most.get()).isEqualTo(1);
  }

  @Test
  void aFreeQueueRunsWorkOnTheCallersThreadAndABusyOneIsSkipped() throws Exception {
    TurnQueue queue = new TurnQueue();
    TurnQueue.Place first = queue.enqueue();
    assertThat(first.waitedNanos()).isZero();
    assertThat(queue.runIfFree(() -> "ran")).isEmpty();

    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = holding(queue, first, running, release);
    running.await();
    assertThat(queue.runIfFree(() -> "ran")).isEmpty();
    TurnQueue.Place behind = queue.enqueue();
    assertThat(behind.queuedSince()).isNotNegative();
    release.countDown();
    holder.join(10_000);
    assertThat(queue.run(behind, () -> Thread.currentThread())).isSameAs(Thread.currentThread());
    assertThat(queue.runIfFree(() -> "ran")).contains("ran");
  }

  @Test
  void aFailingPieceOfWorkPassesTheTurnOn() {
    TurnQueue queue = new TurnQueue();
    TurnQueue.Place failing = queue.enqueue();
    TurnQueue.Place next = queue.enqueue();
    try {
      queue.run(
          failing,
          () -> {
            throw new IllegalStateException("boom");
          });
    } catch (IllegalStateException expected) {
      assertThat(expected).hasMessage("boom");
    }
    assertThat(queue.run(next, () -> "next ran")).isEqualTo("next ran");
  }

  @Test
  void interruptingAWaiterNeitherSkipsNorLosesItsPlace() throws Exception {
    TurnQueue queue = new TurnQueue();
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TurnQueue.Place first = queue.enqueue();
    TurnQueue.Place second = queue.enqueue();
    TurnQueue.Place third = queue.enqueue();
    AtomicBoolean secondSawInterrupt = new AtomicBoolean();
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Thread a =
        Thread.ofVirtual()
            .start(
                () ->
                    queue.run(
                        first,
                        () -> {
                          running.countDown();
                          awaitQuietly(release);
                          return order.add("first");
                        }));
    running.await();
    Thread b =
        Thread.ofVirtual()
            .start(
                () ->
                    queue.run(
                        second,
                        () -> {
                          secondSawInterrupt.set(Thread.currentThread().isInterrupted());
                          return order.add("second");
                        }));
    Thread c = Thread.ofVirtual().start(() -> queue.run(third, () -> order.add("third")));
    while (b.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    b.interrupt();
    assertThat(queue.awaitIdle(TimeUnit.MILLISECONDS.toNanos(50))).isFalse();
    release.countDown();
    a.join(10_000);
    b.join(10_000);
    c.join(10_000);
    assertThat(order).containsExactly("first", "second", "third");
    assertThat(secondSawInterrupt).isTrue();
    assertThat(queue.awaitIdle(0)).isTrue();
  }

  @Test
  void interruptAllReachesTheRunningWork() throws Exception {
    TurnQueue queue = new TurnQueue();
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    Thread worker =
        Thread.ofVirtual()
            .start(
                () ->
                    queue.run(
                        queue.enqueue(),
                        () -> {
                          running.countDown();
                          try {
                            Thread.sleep(60_000);
                          } catch (InterruptedException e) {
                            interrupted.set(true);
                          }
                          return null;
                        }));
    running.await();
    queue.interruptAll();
    assertThat(queue.awaitIdle(TimeUnit.SECONDS.toNanos(10))).isTrue();
    worker.join(10_000);
    assertThat(interrupted).isTrue();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A thread running {@code place}'s work, which says it runs and holds until released. */
  private static Thread holding(
      TurnQueue queue, TurnQueue.Place place, CountDownLatch running, CountDownLatch release) {
    return Thread.ofVirtual()
        .start(
            () ->
                queue.run(
                    place,
                    () -> {
                      running.countDown();
                      awaitQuietly(release);
                      return null;
                    }));
  }

  @Test
  void aPlaceNotServedWithinItsLongestWaitIsGivenUpAndThoseAfterItRunInOrder() throws Exception {
    TurnQueue queue = new TurnQueue();
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TurnQueue.Place first = queue.enqueue();
    Thread holder = holding(queue, first, running, release);
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    TurnQueue.Place late = queue.enqueue();
    TurnQueue.Place after = queue.enqueue();
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    Thread waiting = Thread.ofVirtual().start(() -> queue.run(after, () -> ran.add("after")));

    String answer = queue.run(late, java.time.Duration.ofMillis(100), () -> "ran", () -> "late");

    assertThat(answer).isEqualTo("late");
    assertThat(ran).isEmpty(); // the first still runs
    release.countDown();
    holder.join(10_000);
    waiting.join(10_000);
    assertThat(ran).containsExactly("after");
    assertThat(queue.idle()).isTrue();
    assertThat(queue.run(queue.enqueue(), java.time.Duration.ZERO, () -> "free", () -> "late"))
        .isEqualTo("free");
  }
}
