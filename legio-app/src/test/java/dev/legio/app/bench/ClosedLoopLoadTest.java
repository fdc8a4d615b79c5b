package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClosedLoopLoadTest {
  @Test
  void measuresExactlyTheRequestsAskedForAndKeepsEveryClientSendingUntilTheLastIsAnswered()
      throws Exception {
    AtomicInteger calls = new AtomicInteger();
    Set<Integer> clientsSeen = ConcurrentHashMap.newKeySet();
    // No client goes past its first request until all four have sent one.
    CountDownLatch allStarted = new CountDownLatch(4);
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            4,
            client -> {
              if (clientsSeen.add(client)) {
                allStarted.countDown();
              }
              allStarted.await(30, TimeUnit.SECONDS);
              int n = calls.incrementAndGet();
              return new ClosedLoopLoad.Sample(n, 0, 0, true);
            });

    ClosedLoopLoad.Result result = load.run(new JitWarmUp(Duration.ZERO, Duration.ZERO), 500);

    assertThat(result.samples()).hasSize(500).doesNotContainNull();
    assertThat(result.failed()).isZero();
    assertThat(clientsSeen).containsExactlyInAnyOrder(0, 1, 2, 3);
    // Each sample is a distinct request.
    assertThat(result.samples().stream().map(ClosedLoopLoad.Sample::turnNanos).distinct())
        .hasSize(500);
    assertThat(calls.get()).isGreaterThanOrEqualTo(500);
  }

  @Test
  void aRequestThatThrowsCountsAsFailedAndTheLoadGoesOn() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            2,
            client -> {
              if (calls.incrementAndGet() % 2 == 0) {
                throw new java.io.IOException("connection reset");
              }
              return new ClosedLoopLoad.Sample(1, 0, 0, true);
            });

    ClosedLoopLoad.Result result = load.run(new JitWarmUp(Duration.ZERO, Duration.ZERO), 200);

    assertThat(result.samples()).hasSize(200);
    assertThat(result.failed()).isBetween(1L, 199L);
  }

  @Test
  void everyWindowGivenIsToldInOrderAsMeasuringBeginsAndEnds() throws Exception {
    List<String> told = new CopyOnWriteArrayList<>();
    AtomicInteger sent = new AtomicInteger();
    ClosedLoopLoad.Window[] windows = new ClosedLoopLoad.Window[2];
    for (int w = 0; w < 2; w++) {
      String name = "w" + w;
      windows[w] =
          new ClosedLoopLoad.Window() {
            @Override
            public void opened() {
              told.add(name + " opened after " + sent.get());
            }

            @Override
            public void closed() {
              told.add(name + " closed");
            }
          };
    }
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            1, client -> new ClosedLoopLoad.Sample(sent.incrementAndGet(), 0, 0, true));

    ClosedLoopLoad.Result result =
        load.run(
            new JitWarmUp(Duration.ofMillis(20), Duration.ofMillis(20)),
            50,
            ClosedLoopLoad.Window.all(windows));

    assertThat(told).hasSize(4);
    assertThat(told.get(0)).startsWith("w0 opened");
    assertThat(told.get(1)).startsWith("w1 opened");
    assertThat(told.subList(2, 4)).containsExactly("w0 closed", "w1 closed");
    // Both were opened before the first measured request was sent.
    long opened = Long.parseLong(told.get(1).substring("w1 opened after ".length()));
    assertThat(result.samples().get(0).turnNanos()).isGreaterThan(opened);
  }

  @Test
  void theWarmUpEndsAtItsMaximumWhateverTheJitDoes() throws Exception {
    JitWarmUp.Result warm = new JitWarmUp(Duration.ZERO, Duration.ofMillis(50)).await(() -> false);
    assertThat(warm.took()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
  }

  @Test
  void theJitFigureOfTheWindowIsReadThroughTheWarmUpsOwnCounter() throws Exception {
    // A counter that moves by 12 ms inside the window only, read at its ends. A fresh lookup of the
    // platform's counter there (which deoptimised the server's stream code) would not see it.
    AtomicLong compiled = new AtomicLong();
    List<String> told = new CopyOnWriteArrayList<>();
    ClosedLoopLoad.Window window =
        new ClosedLoopLoad.Window() {
          @Override
          public void opened() {
            told.add("opened");
          }

          @Override
          public void closed() {
            told.add("closed");
          }
        };
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            1,
            client -> {
              if (told.size() == 1 && compiled.get() == 0) {
                compiled.set(12);
              }
              return new ClosedLoopLoad.Sample(1, 0, 0, true);
            });

    ClosedLoopLoad.Result result =
        load.run(new JitWarmUp(Duration.ZERO, Duration.ZERO, compiled::get), 20, window);

    assertThat(told).containsExactly("opened", "closed");
    assertThat(result.jitMillisMeasuring()).isEqualTo(12);
  }

  @Test
  void aWarmUpWithoutACounterCountsNoJitTime() throws Exception {
    JitWarmUp warmUp = new JitWarmUp(Duration.ofMillis(10), Duration.ofMillis(10), null);

    assertThat(warmUp.compiledMillis()).isZero();
    assertThat(warmUp.await(() -> false).settled()).isTrue();
  }

  @Test
  void aLoadInterruptedWhileMeasuredStopsItsClientsAndSaysSo() throws Exception {
    CountDownLatch opened = new CountDownLatch(1);
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            2,
            client -> {
              Thread.sleep(1);
              return new ClosedLoopLoad.Sample(1, 0, 0, true);
            });
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread running =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    load.run(
                        new JitWarmUp(Duration.ZERO, Duration.ZERO, null),
                        1_000_000,
                        new ClosedLoopLoad.Window() {
                          @Override
                          public void opened() {
                            opened.countDown();
                          }
                        });
                  } catch (Throwable t) {
                    thrown.set(t);
                  }
                });

    assertThat(opened.await(10, TimeUnit.SECONDS)).isTrue();
    running.interrupt();
    running.join(10_000);

    assertThat(running.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
  }
}
