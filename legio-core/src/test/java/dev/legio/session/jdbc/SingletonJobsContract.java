package dev.legio.session.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.HeldLeases;
import dev.legio.session.JobLeases;
import dev.legio.session.LeaseHolder;
import dev.legio.session.SingletonJobs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SingletonJobs} on {@link JdbcJobLeases}: several nodes (each a store opened anew on the
 * same database, with a heartbeat driven by hand) run a job on one node at a time, and the job
 * moves when its node dies. Each database's test class says how to open a store on it.
 */
public abstract class SingletonJobsContract {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final String JOB = "daily-cleanup";

  protected final MutableClock clock = MutableClock.at("2026-11-23T02:00:00Z");
  private final List<LegioStore> opened = new ArrayList<>();

  /** Opens a store on the database under test, anew each call (another node). */
  protected abstract LegioStore open(MutableClock clock);

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

  /** One node: its own store, its own heartbeat (renewed only by {@link HeldLeases#renewAll}). */
  private record Node(SingletonJobs jobs, HeldLeases heart) {}

  private Node node(String name) {
    return node(name, LeaseHolder.thisProcess());
  }

  private Node node(String name, LeaseHolder process) {
    LegioStore store = open(clock);
    opened.add(store);
    return node(name, store.jobLeasesAs(process));
  }

  private Node node(String name, JobLeases leases) {
    HeldLeases heart = new HeldLeases(false);
    return new Node(new SingletonJobs(leases, name, TTL, clock, heart, null), heart);
  }

  @Test
  void oneNodeRunsTheJobAndKeepsItWhileItsHeartbeatRenewsTheLease() {
    Node a = node("node-a");
    Node b = node("node-b");
    AtomicInteger runs = new AtomicInteger();

    assertThat(a.jobs().runIfHolder(JOB, runs::incrementAndGet)).isTrue();
    assertThat(b.jobs().runIfHolder(JOB, runs::incrementAndGet)).isFalse();
    assertThat(runs).hasValue(1);
    assertThat(a.jobs().holds(JOB)).isTrue();
    assertThat(b.jobs().holderOf(JOB)).contains("node-a");

    // A day passes: node-a's heartbeat kept its lease, so the next run is node-a's again.
    for (int beat = 0; beat < 10; beat++) {
      clock.advance(TTL.dividedBy(3));
      a.heart().renewAll();
    }
    assertThat(b.jobs().runIfHolder(JOB, runs::incrementAndGet)).isFalse();
    assertThat(a.jobs().runIfHolder(JOB, runs::incrementAndGet)).isTrue();
    assertThat(runs).hasValue(2);
  }

  @Test
  void theJobMovesWhenItsNodeStopsRenewingAndTheOldNodeThenSkipsIt() {
    Node a = node("node-a");
    Node b = node("node-b");
    List<String> ranOn = new ArrayList<>();
    a.jobs().runIfHolder(JOB, () -> ranOn.add("a"));

    // node-a dies (or pauses): no heartbeat. Within the TTL node-b still may not take the job.
    clock.advance(TTL);
    assertThat(b.jobs().runIfHolder(JOB, () -> ranOn.add("b"))).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(b.jobs().runIfHolder(JOB, () -> ranOn.add("b"))).isTrue();
    assertThat(b.jobs().holderOf(JOB)).contains("node-b");

    // node-a comes back: its heartbeat finds the lease gone, and it skips the job from now on.
    a.heart().renewAll();
    assertThat(a.jobs().holds(JOB)).isFalse();
    assertThat(a.jobs().runIfHolder(JOB, () -> ranOn.add("a"))).isFalse();
    assertThat(ranOn).containsExactly("a", "b");
  }

  @Test
  void aJobHandedBackMovesAtOnce() {
    Node a = node("node-a");
    Node b = node("node-b");
    a.jobs().runIfHolder(JOB, () -> {});
    a.jobs().runIfHolder("memory-consolidation", () -> {});

    a.jobs().handBack();

    assertThat(a.jobs().holds(JOB)).isFalse();
    assertThat(b.jobs().runIfHolder(JOB, () -> {})).isTrue();
    assertThat(b.jobs().runIfHolder("memory-consolidation", () -> {})).isTrue();
  }

  @Test
  void theJobOfANodeWhoseProcessEndedOnThisHostIsFreeAtOnce() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    LeaseHolder dead = new LeaseHolder(LeaseHolder.thisProcess().host(), ended.pid());
    Node killed = node("node-killed", dead);
    Node b = node("node-b");
    assertThat(killed.jobs().runIfHolder(JOB, () -> {})).isTrue();

    // No time passes: the holder's process is gone, so its lease is freed and taken.
    assertThat(b.jobs().runIfHolder(JOB, () -> {})).isTrue();
    assertThat(b.jobs().holderOf(JOB)).contains("node-b");
  }

  @Test
  void exactlyOneOfManyNodesStartingAtOnceTakesAFreeJob() throws Exception {
    int nodes = 6;
    List<Node> all = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      all.add(node("node-" + i));
    }
    CyclicBarrier start = new CyclicBarrier(nodes);
    AtomicInteger runs = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(nodes);
    try {
      List<Future<Boolean>> ran = new ArrayList<>();
      for (Node n : all) {
        Callable<Boolean> attempt =
            () -> {
              start.await();
              return n.jobs().runIfHolder(JOB, runs::incrementAndGet);
            };
        ran.add(threads.submit(attempt));
      }
      int winners = 0;
      for (Future<Boolean> f : ran) {
        winners += f.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
      assertThat(runs).hasValue(1);
    } finally {
      threads.shutdownNow();
    }
  }
}
