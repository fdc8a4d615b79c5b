package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.app.StoreOpener;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.session.LeaseHolder;
import dev.legio.store.LegioStore;
import dev.legio.task.TaskSessionRecord;
import dev.legio.task.TaskSessions;
import dev.legio.testing.MutableClock;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageRecorder;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v1/tasks} through real HTTP while a second node shares the database and takes
 * the task's session over: one behavioural suite that SQLite and PostgreSQL run. A turn whose lease
 * passed to the other node stores nothing and is 409 with its answer, whether the write of its
 * answer found the lease lost itself or failed and the check after it found the lease lost.
 */
abstract class TaskTakeoverApiContract {
  static final String KEY = "campaign:7f3c/ä";

  @TempDir Path dir;

  /** A server on this suite's database, in {@code dir}. */
  abstract ServerFixture start(Path dir) throws Exception;

  /**
   * Makes every write that must hold a session lease fail from now on, as a database out of reach
   * does: the statement that checks the lease first in the write's transaction ({@code
   * LeaseRows.guard}) fails with an error. Renewing a lease held still works, so the check after a
   * failed write can tell that the lease is another node's.
   */
  abstract void refuseWritesUnderALease(ServerFixture f) throws Exception;

  /**
   * Fails unless {@link #refuseWritesUnderALease} refused a write: were it to miss one, the write
   * would find the lease lost itself, and the 409 would not tell that path from this one.
   */
  abstract void assertAWriteUnderALeaseWasRefused(ServerFixture f) throws Exception;

  @Test
  void aTurnWhoseSessionAnotherNodeTookOverIs409WithItsAnswerSayingWhatHappenedAndStoresNothing()
      throws Exception {
    try (ServerFixture f = start(dir)) {
      TakenOver takenOver = heldWhileNodeBTakesOver(f, () -> {});

      HttpResponse<String> lost = takenOver.response();
      assertError(lost, 409, "lease_ttl_seconds");
      assertError(lost, 409, "Nothing of this turn was stored");
      assertError(lost, 409, "Use it rather than sending the task again");
      assertLostWithTheAnswerAndNothingStored(f, takenOver);
    }
  }

  /**
   * This node loses the database while its turn runs, for longer than its lease: node b takes the
   * session over and runs a task of it, and this node's write of its answer then fails. The check
   * after the failed write finds the lease node b's: the caller is told of the takeover, not of a
   * database failure, since node b may have run the task too.
   */
  @Test
  void anAnswerWhoseWriteFailedAfterAnotherNodeTookTheSessionIs409WithTheAnswer() throws Exception {
    try (ServerFixture f = start(dir)) {
      TakenOver takenOver = heldWhileNodeBTakesOver(f, () -> refuseWritesUnderALease(f));

      assertError(takenOver.response(), 409, "the other node may have answered it too");
      assertLostWithTheAnswerAndNothingStored(f, takenOver);
      assertAWriteUnderALeaseWasRefused(f);
    }
  }

  /** What a held turn answered after node b took its session over, and what node b left. */
  private record TakenOver(HttpResponse<String> response, TaskSessionRecord leftByB) {}

  /** Something done after node b's run, before the held turn goes on. */
  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  /**
   * Runs a task that holds (the fixture's back-end waits on {@code #hold}) while node b, its clock
   * an hour past this node's lease (as when this node pauses longer than lease_ttl_seconds with no
   * heartbeat meanwhile), takes the session over and runs a task of it; then {@code beforeRelease},
   * then lets the held turn go on.
   */
  private static TakenOver heldWhileNodeBTakesOver(ServerFixture f, Step beforeRelease)
      throws Exception {
    assertThat(task(f, "scout the ford").statusCode()).isEqualTo(200);
    MutableClock later = new MutableClock(Instant.now().plus(Duration.ofHours(1)));
    try (LegioStore nodeB =
            StoreOpener.open(
                f.app.config().praetorium(),
                later,
                LegioApp.Lifetime.LONG_RUNNING,
                new LeaseHolder("node-b", 1));
        TaskSessions b =
            new TaskSessions(
                f.app.agents(),
                new OfflineBackend(),
                null,
                nodeB.tasks(),
                nodeB.sessions(),
                nodeB.usage(),
                new UsageRecorder(nodeB.usage(), f.app.prices()),
                f.app.config().sessions(),
                later,
                nodeB.conversations())) {
      CompletableFuture<HttpResponse<String>> held =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return task(f, "#hold and the bridge");
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
      b.run(KEY, "vorenus", "the ford on node b", "run-b");
      TaskSessionRecord leftByB = f.app.store().tasks().find(KEY, "vorenus").orElseThrow();
      beforeRelease.run();
      f.release();
      return new TakenOver(held.get(30, TimeUnit.SECONDS), leftByB);
    }
  }

  /**
   * The 409 says the session was taken over and gives the answer (it came before the lease was
   * found lost, and was paid for) as outside the session's history; the record is as node b left
   * it; the ledger has the turn's spent tokens as {@code lease_lost}, not as a database error.
   */
  private static void assertLostWithTheAnswerAndNothingStored(ServerFixture f, TakenOver takenOver)
      throws Exception {
    HttpResponse<String> lost = takenOver.response();
    assertError(lost, 409, "the session of vorenus for key '" + KEY + "' was taken over");
    assertError(lost, 409, "is given here (reply), but it is not in the session's history");
    JsonNode body = ServerFixture.json(lost);
    assertThat(body.fieldNames())
        .toIterable()
        .containsExactlyInAnyOrder("error", "reply", "task_run_id");
    assertThat(body.get("reply").asText()).contains("#hold and the bridge");
    assertThat(body.get("task_run_id").asText()).isEqualTo("run-20");
    assertThat(f.app.store().tasks().find(KEY, "vorenus")).contains(takenOver.leftByB());
    assertThat(f.app.usage().entries(Instant.EPOCH, 100))
        .filteredOn(e -> "run-20".equals(e.task().taskRunId()))
        .extracting(LedgerEntry::outcome)
        .containsExactly(TurnOutcome.LEASE_LOST);
  }

  private static HttpResponse<String> task(ServerFixture f, String text) throws Exception {
    return f.post(
        "/api/v1/tasks",
        f.task,
        Map.of(
            "session_key",
            KEY,
            "agent",
            "vorenus",
            "text",
            text,
            "task_run_id",
            "run-" + text.length()));
  }
}
