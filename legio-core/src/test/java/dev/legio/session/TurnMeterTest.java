package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.config.SessionSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.NewMessage;
import dev.legio.testing.InMemoryMessageLog;
import dev.legio.testing.InMemorySessionStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link TurnMeter}: every turn the runner runs is told exactly once, with how it ended, before its
 * reply is returned; a meter that throws changes nothing about the turn.
 */
class TurnMeterTest {
  @TempDir Path dir;

  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final InMemoryMessageLog log = new InMemoryMessageLog(clock);
  private final InMemorySessionStore store = new InMemorySessionStore();
  private final ScriptedBackend backend = ScriptedBackend.forgetful();
  private final List<EndedTurn> told = new CopyOnWriteArrayList<>();

  @ParameterizedTest
  @EnumSource(TurnEnding.class)
  void everyTurnIsToldOnceWithHowItEnded(TurnEnding ending) throws Exception {
    boolean closing = ending == TurnEnding.INTERRUPTED;
    switch (ending) {
      case FAILED, INTERRUPTED -> backend.failing.add("vorenus");
      case BUSY -> store.tryLease("vorenus", "another-process", clock.instant(), LEASE);
      case COMPLETED -> {}
    }
    TurnRunner runner = runner(closing);
    runner.setTurnMeter(told::add);
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, false, false);

    // Told on the turn's thread, before the reply came back.
    assertThat(told)
        .singleElement()
        .satisfies(
            turn -> {
              assertThat(turn.owner()).isEqualTo(Owner.of("vorenus"));
              assertThat(turn.ending()).isEqualTo(ending);
              assertThat(turn.duration().isNegative()).isFalse();
              if (ending == TurnEnding.COMPLETED) {
                assertThat(turn.completed().reply()).isEqualTo(reply.text());
                assertThat(turn.completed().usage().inputTokens()).isEqualTo(10);
              } else {
                assertThat(turn.completed()).isNull();
              }
            });
    assertThat(reply.failed()).isEqualTo(ending != TurnEnding.COMPLETED);
    runner.close();
  }

  @Test
  void aMeterThatThrowsChangesNothingAboutTheTurn() throws Exception {
    TurnRunner runner = runner(false);
    runner.setTurnMeter(
        turn -> {
          throw new IllegalStateException("the meter broke");
        });
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, false, false);
    runner.close();

    assertThat(reply.failed()).isFalse();
    assertThat(log.find(reply.messageId())).isPresent();
    assertThat(store.holderOf("vorenus")).isEmpty();
  }

  private static final Duration LEASE = Duration.ofMinutes(15);

  private TurnRunner runner(boolean closing) throws Exception {
    SessionSettings settings = SessionSettings.defaults().withLockWait(Duration.ofSeconds(1));
    LeaseGate leases = new LeaseGate(store, "me", LEASE, clock, clock, clock::advance);
    return new TurnRunner(
        log,
        leases,
        new OwnerProfiles(agents(), settings, backend, null),
        new SessionLifecycle(
            store,
            settings,
            MemoryPrompt.NONE,
            new RebuildCounter(new SessionEvents()),
            0,
            UnfinishedEdits.NONE),
        new HistoryInjector(log::visibleTo, centuriones -> "<status/>"),
        settings,
        clock,
        backend.displayName(),
        TurnListener.NONE,
        new SessionEvents(),
        SessionCondenser.off(),
        () -> closing);
  }

  private AgentDirectory agents() throws Exception {
    Workspace workspace = new Workspace(dir);
    if (!java.nio.file.Files.exists(workspace.castra())) {
      WorkspaceInitializer.initialise(workspace);
    }
    return new AgentDirectory(workspace.castra());
  }
}
