package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventHubTest {
  @Test
  void aSessionEventIsBuiltOnlyWhileSomeoneListensAndThenReachesThem() throws Exception {
    EventHub hub = new EventHub(null, 16, Duration.ofSeconds(1)); // no feed: session events only
    AtomicInteger built = new AtomicInteger();
    java.util.function.Supplier<ServerEvent> activity =
        () -> {
          built.incrementAndGet();
          return ServerEvent.of("activity", Map.of("agent", "vorenus", "status", "idle"));
        };

    hub.publish(activity);
    assertThat(built).hasValue(0);

    EventSubscription listener = hub.subscribe();
    hub.publish(activity);
    assertThat(built).hasValue(1);
    ServerEvent got = listener.next(1_000);
    assertThat(got).isNotNull();
    assertThat(got.name()).isEqualTo("activity");
    assertThat(got.isMessage()).isFalse();

    hub.unsubscribe(listener);
    hub.publish(activity);
    assertThat(built).hasValue(1);
  }
}
