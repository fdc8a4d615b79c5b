package dev.legio.testing;

import dev.legio.backend.http.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link RetryPolicy.Sleeper} that records each wait and returns at once. */
public final class RecordingSleeper implements RetryPolicy.Sleeper {
  public final List<Duration> waits = new CopyOnWriteArrayList<>();

  @Override
  public void sleep(Duration duration) {
    waits.add(duration);
  }
}
