package dev.legio.app.gateway.telegram;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Shows {@code typing} in a chat while agents work: Telegram shows a chat action for about five
 * seconds, so it is sent at once and then every {@link #EVERY} until {@link #close()}. A failed
 * send is ignored (the reply matters, not the indicator).
 */
final class TypingIndicator implements AutoCloseable {
  static final Duration EVERY = Duration.ofSeconds(4);

  private final ScheduledFuture<?> task;

  TypingIndicator(ScheduledExecutorService timer, Duration every, Runnable send) {
    this.task =
        timer.scheduleAtFixedRate(
            () -> {
              try {
                send.run();
              } catch (RuntimeException ignored) {
                // the indicator is best effort
              }
            },
            0,
            every.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  static TypingIndicator start(
      ScheduledExecutorService timer, Duration every, String chatId, Consumer<String> send) {
    return new TypingIndicator(timer, every, () -> send.accept(chatId));
  }

  @Override
  public void close() {
    task.cancel(false);
  }
}
