package dev.legio.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskSlotsTest {
  @TempDir Path dir;

  @Test
  void retiringSlotsWhileTurnsComeNeverLetsTwoTurnsOfOnePairRunAtOnce() throws Exception {
    TaskSlots slots = new TaskSlots();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger turns = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    List<Future<?>> done = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
      for (int t = 0; t < 5; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 5_000; i++) {
                    TaskSlot slot = slots.lock("k", "a", TimeUnit.SECONDS.toNanos(30));
                    try {
                      most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      turns.incrementAndGet();
                      long until = System.nanoTime() + 2_000; // a turn's inside: 2 µs
                      while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                      }
                      inside.decrementAndGet();
                      slots.retireIfUnused("k", "a", slot); // no live session: retired each time
                    } finally {
                      slot.lock.unlock();
                    }
                  }
                  return null;
                }));
      }
      // The maintenance's sweep, retiring what it finds unused, all the while.
      done.add(
          pool.submit(
              () -> {
                while (!stop.get()) {
                  slots.forEach(
                      (key, agent, slot) -> {
                        if (slot.lock.tryLock()) {
                          try {
                            slots.retireIfUnused(key, agent, slot);
                          } finally {
                            slot.lock.unlock();
                          }
                        }
                      });
                }
                return null;
              }));
      for (int i = 0; i < 5; i++) {
        done.get(i).get(60, TimeUnit.SECONDS);
      }
      stop.set(true);
      done.get(5).get(60, TimeUnit.SECONDS);
    }
    assertThat(turns.get()).isEqualTo(25_000);
    assertThat(most.get()).as("turns of one pair inside at once").isEqualTo(1);
    assertThat(slots.size()).isZero();
  }

  @Test
  void aSlotSomeoneWaitsForOrWithALiveSessionIsKept() throws Exception {
    TaskSlots slots = new TaskSlots();
    TaskSlot slot = slots.lock("k", "a", 0);
    Thread waiter =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    slots.lock("k", "a", TimeUnit.SECONDS.toNanos(30)).lock.unlock();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    while (!slot.lock.hasQueuedThreads()) {
      Thread.sleep(1);
    }
    slots.retireIfUnused("k", "a", slot);
    assertThat(slots.get("k", "a")).as("someone waits").isSameAs(slot);
    slot.lock.unlock();
    waiter.join();
    assertThat(slots.get("k", "a")).as("the waiter's turn ran on the same slot").isSameAs(slot);
  }

  @Test
  void idleTaskSessionsLeaveNoSlotBehindAndStillResume() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path prompt = workspace.castra().resolve("centuriones/copywriter/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: Writes copy.\n---\nYou write copy.\n");
    MutableClock clock = MutableClock.at("2026-11-20T10:00:00Z");
    SessionSettings settings = SessionSettings.defaults();
    try (LegioStore store =
            LegioStore.openSqlite(
                new JdbcMessageLogs.SqliteOptions(
                    dir.resolve("praetorium.db"), 4096, false, 4, clock));
        ScriptedBackend backend = ScriptedBackend.resuming(new ScriptedBackend.Conversations());
        TaskSessions tasks =
            TestTaskSessions.on(store, workspace.castra(), backend, settings, clock)) {
      List<TaskResult> first = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        first.add(tasks.run("campaign:" + i, "copywriter", "brief " + i, null));
      }
      assertThat(tasks.slotsHeld()).isEqualTo(50);

      clock.advance(settings.idleTimeout().plusMinutes(1));
      assertThat(tasks.closeIdle()).isEqualTo(50);
      assertThat(tasks.slotsHeld()).as("no live session, nobody waiting").isZero();

      TaskResult again = tasks.run("campaign:7", "copywriter", "and now?", null);
      assertThat(again.resumed()).isTrue();
      assertThat(again.sessionId()).isEqualTo(first.get(7).sessionId());
      assertThat(tasks.slotsHeld()).isEqualTo(1);
    }
  }
}
