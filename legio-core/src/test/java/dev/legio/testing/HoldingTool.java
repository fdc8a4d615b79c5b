package dev.legio.testing;

import dev.legio.tools.ToolDefinition;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A toolset for cancellation tests: {@code hold} says when it began and waits for {@link #release}
 * (at most 10 s), or until its thread is interrupted; {@code greet} answers at once.
 */
public final class HoldingTool {
  /** Counted down when {@code hold} begins. */
  public final CountDownLatch began = new CountDownLatch(1);

  /** Counted down when {@code hold}'s wait was interrupted. */
  public final CountDownLatch interrupted = new CountDownLatch(1);

  /** Lets {@code hold} answer. */
  public final CountDownLatch release = new CountDownLatch(1);

  /** How many times {@code hold} began. */
  public final AtomicInteger runs = new AtomicInteger();

  public Toolset tools() {
    return new Toolbox(
        "vorenus",
        List.of(
            new ToolDefinition(
                "hold",
                "Wait until the test says.",
                List.of(),
                in -> {
                  runs.incrementAndGet();
                  began.countDown();
                  try {
                    return release.await(10, TimeUnit.SECONDS) ? "released" : "timed out";
                  } catch (InterruptedException e) {
                    interrupted.countDown();
                    Thread.currentThread().interrupt();
                    return "interrupted";
                  }
                }),
            new ToolDefinition("greet", "Greet.", List.of(), in -> "Ave, vorenus.")));
  }
}
