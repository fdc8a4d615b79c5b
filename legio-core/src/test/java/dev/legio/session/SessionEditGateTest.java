package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.InMemorySessionStore;
import dev.legio.testing.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionEditGate}, for an owner no slot of this process holds (its edit takes the lease at
 * once): how the edit ended is what its caller sees, whatever the release of its lease does.
 */
class SessionEditGateTest {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final InMemorySessionStore store = new InMemorySessionStore();

  /** The store, whose releases fail as a database that went away does. */
  private final SessionStore releaseFails =
      (SessionStore)
          Proxy.newProxyInstance(
              SessionStore.class.getClassLoader(),
              new Class<?>[] {SessionStore.class},
              (proxy, method, args) -> {
                if (method.getName().equals("releaseLease")) {
                  throw new SessionStoreException("releasing the lease failed: connection lost");
                }
                try {
                  return method.invoke(store, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              });

  private SessionEditGate gate() {
    return new SessionEditGate(
        owner -> null,
        () -> new LeaseGate(releaseFails, "edit-1", LEASE, clock, clock, clock::advance),
        Duration.ofSeconds(1),
        wait -> true);
  }

  @Test
  void anEditThatFailedIsToldItsOwnFailureWhenTheReleaseFailsToo() {
    IllegalStateException failure = new IllegalStateException("the rewind found no such turn");

    assertThatThrownBy(
            () ->
                gate()
                    .whileNoTurnRuns(
                        "vorenus",
                        writer -> {
                          throw failure;
                        }))
        .isSameAs(failure);
    assertThat(failure.getSuppressed())
        .singleElement()
        .satisfies(e -> assertThat(e).hasMessageContaining("releasing the lease failed"));
  }

  @Test
  void anEditThatSucceededStaysDoneWhenTheReleaseFails() {
    String done = gate().whileNoTurnRuns("vorenus", writer -> "rewound");
    assertThat(done).isEqualTo("rewound");
    // The lease it could not give up runs out by itself.
    assertThat(store.holderOf("vorenus")).contains("edit-1");
    assertThat(store.tryLease("vorenus", "node-b", clock.instant().plus(LEASE).plusNanos(1), LEASE))
        .isTrue();
  }
}
