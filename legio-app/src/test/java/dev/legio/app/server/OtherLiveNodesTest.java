package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.store.NodeDirectory;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OtherLiveNodesTest {
  private static final URI SELF = URI.create("http://127.0.0.1:8741");
  private static final NodeDirectory.Node ME = new NodeDirectory.Node("node-a", SELF);
  private static final NodeDirectory.Node OTHER =
      new NodeDirectory.Node("node-b", URI.create("http://127.0.0.1:8742"));

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicReference<List<NodeDirectory.Node>> live = new AtomicReference<>(List.of(ME));

  private final OtherLiveNodes nodes =
      new OtherLiveNodes(
          () -> {
            reads.incrementAndGet();
            return live.get();
          },
          () -> SELF,
          now::get);

  @Test
  void aReadingServesForItsMaximumAgeThenIsReadAgain() {
    assertThat(nodes.get()).isEmpty();
    live.set(List.of(ME, OTHER));
    now.addAndGet(OtherLiveNodes.MAX_AGE.toNanos() - 1);
    assertThat(nodes.get()).isEmpty();
    assertThat(reads).hasValue(1);

    now.addAndGet(1);
    assertThat(nodes.get()).containsExactly(OTHER);
    assertThat(reads).hasValue(2);
  }

  @Test
  void everyLiveNodeIsOtherWhileThisNodesUrlIsNotKnown() {
    live.set(List.of(ME, OTHER));
    OtherLiveNodes unknownSelf = new OtherLiveNodes(live::get, () -> null, now::get);
    assertThat(unknownSelf.get()).containsExactly(ME, OTHER);
  }

  @Test
  void aFailedReadThrowsKeepsTheLastReadingAndIsTriedAgain() {
    live.set(List.of(ME, OTHER));
    assertThat(nodes.get()).containsExactly(OTHER);
    OtherLiveNodes failing =
        new OtherLiveNodes(
            () -> {
              if (reads.incrementAndGet() == 2) {
                throw new IllegalStateException("database down");
              }
              return live.get();
            },
            () -> SELF,
            now::get);
    reads.set(0);
    assertThat(failing.get()).containsExactly(OTHER);
    now.addAndGet(OtherLiveNodes.MAX_AGE.toNanos());
    assertThatThrownBy(() -> failing.get()).hasMessage("database down");
    live.set(List.of(ME));
    assertThat(failing.get()).isEmpty();
    assertThat(reads).hasValue(3);
  }

  @Test
  void whileOneCallerReadsAgainTheOthersGoOnWithTheLastReading() throws Exception {
    CountDownLatch readStarted = new CountDownLatch(1);
    CountDownLatch releaseRead = new CountDownLatch(1);
    OtherLiveNodes slow =
        new OtherLiveNodes(
            () -> {
              if (reads.incrementAndGet() == 2) {
                readStarted.countDown();
                try {
                  releaseRead.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return live.get();
            },
            () -> SELF,
            now::get);
    assertThat(slow.get()).isEmpty();
    live.set(List.of(ME, OTHER));
    now.addAndGet(OtherLiveNodes.MAX_AGE.toNanos());
    CompletableFuture<List<NodeDirectory.Node>> reader =
        CompletableFuture.supplyAsync(() -> slow.get());
    assertThat(readStarted.await(30, TimeUnit.SECONDS)).isTrue();

    // The read is under way: another caller is answered from the last reading at once.
    assertThat(slow.get()).isEmpty();

    releaseRead.countDown();
    assertThat(reader.get(30, TimeUnit.SECONDS)).containsExactly(OTHER);
    assertThat(slow.get()).containsExactly(OTHER);
    assertThat(reads).hasValue(2);
  }
}
