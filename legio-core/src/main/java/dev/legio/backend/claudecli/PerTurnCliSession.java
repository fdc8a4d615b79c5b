package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A session in {@link ClaudeCliBackend.Mode#PER_TURN} mode: one process per turn, {@code
 * --session-id <uuid>} on the first and {@code --resume <uuid>} after.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The user's line is written and stdin closed, so the process answers and exits.
 *   <li>A finished turn returns as soon as its result is read (the turn is in the transcript by
 *       then: {@link EagerTranscript}); the process exits in the background, stopped after 5 s at
 *       most ({@link CliProcess#stopInBackground}), so the caller does not wait for the CLI's exit
 *       clean-up. No thread waits for that exit meanwhile: the JDK's own wait for it ({@link
 *       Process#onExit}) completes a future. A turn that did not finish kills its process before it
 *       returns.
 *   <li>The session's next turn starts its process only once the previous one has exited (or been
 *       killed): two processes never hold the conversation at once, and {@code --resume} never
 *       reads a transcript an exiting process still writes. Closing the session waits for it too,
 *       but 2 s at most, as long as a persistent session's close waits for its process: a process
 *       still exiting then is killed with its tree, so no process of a closed session is left
 *       running and a close takes about 2 s at worst, not the 5 s the exit is otherwise given.
 * </ul>
 */
final class PerTurnCliSession extends CliSession {
  /**
   * How long closing the session lets its last turn's process go on exiting before it is killed:
   * what a persistent session's close gives its process ({@link CliProcess#close}).
   */
  private static final long CLOSE_WAIT_MILLIS = 2_000;

  /** The previous turn's process being stopped: done once it has exited; null when none. */
  private CompletableFuture<Void> previous;

  /** That process, to kill when waiting for it is interrupted. */
  private CliProcess previousProcess;

  PerTurnCliSession(Parts parts, SessionSpec spec, String id, boolean resumed) {
    super(parts, spec, id, resumed);
  }

  @Override
  CliProcess processFor(boolean resume) {
    if (!awaitPrevious(Long.MAX_VALUE)) {
      throw TurnReader.interrupted(
          new InterruptedException("waiting for the previous turn's process to exit"));
    }
    return start(resume);
  }

  @Override
  void written(CliProcess running) {
    running.closeInput();
  }

  @Override
  void release(CliProcess running, boolean finished) {
    if (finished) {
      previous = running.stopInBackground(5_000);
      previousProcess = running;
    } else {
      running.kill();
    }
  }

  @Override
  void stop() {
    awaitPrevious(CLOSE_WAIT_MILLIS);
  }

  /**
   * Waits until the previous turn's process has exited or been killed: its own stop bounds the wait
   * (7 s at most: 5 s to exit, then the kill), and when it has not exited within {@code
   * atMostMillis} it is killed now. False when the thread was interrupted meanwhile: the process is
   * killed and the thread keeps its interrupt flag.
   */
  private boolean awaitPrevious(long atMostMillis) {
    if (previous == null) {
      return true;
    }
    try {
      previous.get(atMostMillis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      previousProcess.kill();
      return true;
    } catch (InterruptedException e) {
      previousProcess.kill();
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException e) {
      previousProcess.kill();
      return true;
    } finally {
      previous = null;
      previousProcess = null;
    }
  }
}
