package dev.legio.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules of {@link TaskSessionStore}, on SQLite and PostgreSQL by the subclasses. */
public abstract class TaskSessionStoreContract {
  @TempDir Path dir;
  protected final MutableClock clock = MutableClock.at("2026-11-20T10:00:00.123456Z");
  private LegioStore store;
  private TaskSessionStore tasks;

  protected abstract LegioStore openStore(Path dir, MutableClock clock);

  protected void afterStoreClosed() {}

  @BeforeEach
  void open() {
    store = openStore(dir, clock);
    tasks = store.tasks();
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    afterStoreClosed();
  }

  private static TaskSessionRecord record(String key, String agent, Instant at, Duration ttl) {
    return new TaskSessionRecord(
        key,
        agent,
        UUID.randomUUID(),
        "anthropic",
        UUID.randomUUID().toString(),
        "ab".repeat(32),
        "claude-sonnet-4-5",
        1_234,
        56,
        3,
        at.minusSeconds(60),
        at,
        at.plus(ttl));
  }

  @Test
  void aRecordSavedUnderALeaseIsWrittenOnlyWhileItsHolderHoldsTheLease() {
    Instant at = clock.instant();
    String lease = "task/copywriter/ticket:1";
    TaskSessionRecord first = record("ticket:1", "copywriter", at, Duration.ofDays(30));
    assertThat(store.sessions().tryLease(lease, "node-a", at, Duration.ofSeconds(30))).isTrue();
    tasks.saveWhileLeased(first, lease, "node-a");
    assertThat(tasks.find("ticket:1", "copywriter")).contains(first);

    // node-a's lease ran out and node-b took it: node-a's write is refused, node-b's lands.
    Instant later = at.plusSeconds(31);
    assertThat(store.sessions().tryLease(lease, "node-b", later, Duration.ofSeconds(30))).isTrue();
    TaskSessionRecord stale = record("ticket:1", "copywriter", later, Duration.ofDays(30));
    assertThatThrownBy(() -> tasks.saveWhileLeased(stale, lease, "node-a"))
        .isInstanceOf(dev.legio.session.LeaseLostException.class);
    assertThat(tasks.find("ticket:1", "copywriter")).contains(first);
    // Nor may a holder write under no lease at all, or under another session's.
    assertThatThrownBy(() -> tasks.saveWhileLeased(stale, "task/copywriter/ticket:2", "node-b"))
        .isInstanceOf(dev.legio.session.LeaseLostException.class);
    tasks.saveWhileLeased(stale, lease, "node-b");
    assertThat(tasks.find("ticket:1", "copywriter")).contains(stale);
    store.sessions().releaseLease(lease, "node-b");
  }

  @Test
  void aRecordIsFoundExactlyAsSavedAndSavingReplacesIt() {
    Instant at = Instant.parse("2026-11-20T10:00:00.123456Z");
    TaskSessionRecord first = record("campaign:7f3c/ä b", "copywriter", at, Duration.ofDays(30));
    tasks.save(first);
    assertThat(tasks.find("campaign:7f3c/ä b", "copywriter")).contains(first);

    TaskSessionRecord second =
        new TaskSessionRecord(
            first.sessionKey(),
            first.agent(),
            UUID.randomUUID(),
            "ollama",
            null,
            first.promptHash(),
            null,
            0,
            0,
            0,
            at,
            at,
            at.plus(Duration.ofDays(7)));
    tasks.save(second);
    assertThat(tasks.find("campaign:7f3c/ä b", "copywriter")).contains(second);
    assertThat(tasks.forKey("campaign:7f3c/ä b")).containsExactly(second);
  }

  @Test
  void keysAndAgentsAreComparedExactly() {
    Instant at = clock.instant();
    tasks.save(record("a:b", "copywriter", at, Duration.ofDays(1)));
    tasks.save(record("a:b", "editor", at, Duration.ofDays(1)));
    tasks.save(record("A:b", "copywriter", at, Duration.ofDays(1)));

    assertThat(tasks.find("a:b ", "copywriter")).isEmpty();
    assertThat(tasks.find("a:B", "copywriter")).isEmpty();
    assertThat(tasks.forKey("a:b"))
        .extracting(TaskSessionRecord::agent)
        .containsExactly("copywriter", "editor");
  }

  @Test
  void deleteExpiredDeletesExactlyTheRecordsExpiredAtNowAndReturnsThem() {
    Instant at = Instant.parse("2026-11-20T10:00:00Z");
    TaskSessionRecord due = record("k1", "copywriter", at, Duration.ofDays(7));
    TaskSessionRecord kept = record("k2", "copywriter", at, Duration.ofDays(30));
    tasks.save(due);
    tasks.save(kept);

    assertThat(tasks.deleteExpired(at.plus(Duration.ofDays(7)).minusNanos(1_000))).isEmpty();
    assertThat(tasks.deleteExpired(at.plus(Duration.ofDays(7)))).containsExactly(due);
    assertThat(tasks.find("k1", "copywriter")).isEmpty();
    assertThat(tasks.find("k2", "copywriter")).contains(kept);
  }
}
