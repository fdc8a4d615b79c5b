package dev.legio.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.ConversationHome;
import dev.legio.session.LeaseHolder;
import dev.legio.session.SessionRecord;
import dev.legio.task.TaskSessionRecord;
import dev.legio.testing.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several nodes on one database: each records itself as the node of the sessions whose turns it
 * saves, and the {@link NodeDirectory} tells which nodes are live and where. Each database's test
 * class says how to open a store on it as a given node.
 */
public abstract class NodeDirectoryContract {
  private static final Duration TTL = Duration.ofSeconds(30);

  protected final MutableClock clock = MutableClock.at("2026-11-23T08:00:00Z");
  private final List<LegioStore> opened = new ArrayList<>();

  /** Opens a store on the database under test, anew each call, as {@code process}. */
  protected abstract LegioStore open(MutableClock clock, LeaseHolder process);

  /** Runs after every store of the test is closed. */
  protected void afterStoresClosed() {}

  @AfterEach
  void closeStores() {
    try {
      opened.forEach(LegioStore::close);
    } finally {
      afterStoresClosed();
    }
  }

  private LegioStore node(String name) {
    LegioStore store = open(clock, new LeaseHolder(name, ProcessHandle.current().pid()));
    opened.add(store);
    return store;
  }

  @Test
  void theNodeThatSavedASessionLastIsTheOneThatHoldsIt() {
    LegioStore a = node("node-a");
    LegioStore b = node("node-b");
    assertThat(a.node()).isEqualTo("node-a");
    SessionRecord record = record("vorenus");
    a.sessions().save(record);
    assertThat(b.sessions().conversationHome("vorenus"))
        .contains(new ConversationHome("claude-cli", "node-a"));

    // node-b runs the next turn (its resume failed, or the files are shared): it holds it now.
    b.sessions().save(record.afterTurn(10, 5, 3, clock.instant(), clock.instant().plus(TTL)));
    assertThat(a.sessions().conversationHome("vorenus"))
        .contains(new ConversationHome("claude-cli", "node-b"));

    // A closed session is held by no node; an unknown owner neither.
    a.sessions().save(record.closed("reset"));
    assertThat(b.sessions().conversationHome("vorenus")).isEmpty();
    assertThat(b.sessions().conversationHome("pullo")).isEmpty();
  }

  @Test
  void theNodeThatSavedATaskSessionLastIsTheOneThatHoldsIt() {
    LegioStore a = node("node-a");
    LegioStore b = node("node-b");
    a.tasks().save(task("campaign:7f3c", "copywriter"));
    assertThat(b.tasks().conversationHome("campaign:7f3c", "copywriter", clock.instant()))
        .contains(new ConversationHome("claude-cli", "node-a"));
    assertThat(b.tasks().conversationHome("campaign:other", "copywriter", clock.instant()))
        .isEmpty();
    b.tasks().save(task("campaign:7f3c", "copywriter"));
    assertThat(a.tasks().conversationHome("campaign:7f3c", "copywriter", clock.instant()))
        .contains(new ConversationHome("claude-cli", "node-b"));
    // An expired task session is held by no node: the next task starts anew wherever it lands.
    assertThat(
            a.tasks()
                .conversationHome(
                    "campaign:7f3c", "copywriter", clock.instant().plus(Duration.ofDays(31))))
        .isEmpty();
  }

  @Test
  void aNodeIsLiveWhileItAnnouncesItselfWithinTheLeaseTime() {
    LegioStore a = node("node-a");
    NodeDirectory nodes = a.nodes();
    URI first = URI.create("http://127.0.0.1:8741");
    URI second = URI.create("http://127.0.0.1:8742");
    nodes.announce("node-a", first, clock.instant());
    clock.advance(Duration.ofSeconds(1));
    nodes.announce("node-b", second, clock.instant());
    assertThat(nodes.liveNodes(clock.instant(), TTL))
        .containsExactly(
            new NodeDirectory.Node("node-b", second), new NodeDirectory.Node("node-a", first));

    // node-a keeps announcing; node-b stops (killed): after the lease time it is not live.
    clock.advance(TTL.minusSeconds(5));
    nodes.announce("node-a", first, clock.instant());
    clock.advance(Duration.ofSeconds(6));
    assertThat(nodes.liveNodes(clock.instant(), TTL))
        .containsExactly(new NodeDirectory.Node("node-a", first));

    // A node that stops cleanly leaves at once; one restarted on the same URL replaces its row.
    nodes.leave(first);
    assertThat(nodes.liveNodes(clock.instant(), TTL)).isEmpty();
    nodes.announce("node-c", second, clock.instant());
    assertThat(nodes.liveNodes(clock.instant(), TTL))
        .containsExactly(new NodeDirectory.Node("node-c", second));
    // Once nobody has announced for the lease time, no node is live.
    assertThat(nodes.liveNodes(clock.instant().plus(TTL).plusSeconds(1), TTL)).isEmpty();
  }

  private SessionRecord record(String owner) {
    Instant now = clock.instant();
    return new SessionRecord(
        owner,
        UUID.randomUUID(),
        "claude-cli",
        "cli-session-1",
        "ab".repeat(32),
        null,
        0,
        0,
        0,
        0,
        now,
        now,
        now.plus(TTL),
        SessionRecord.State.ACTIVE,
        null,
        0);
  }

  private TaskSessionRecord task(String key, String agent) {
    Instant at = clock.instant();
    return new TaskSessionRecord(
        key,
        agent,
        UUID.randomUUID(),
        "claude-cli",
        UUID.randomUUID().toString(),
        "ab".repeat(32),
        "claude-sonnet-4-5",
        1_234,
        56,
        3,
        at.minusSeconds(60),
        at,
        at.plus(Duration.ofDays(30)));
  }
}
