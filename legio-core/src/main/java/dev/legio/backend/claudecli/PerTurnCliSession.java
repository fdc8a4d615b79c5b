package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

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
 *       reads a transcript an exiting process still writes. Closing the session waits for it the
 *       same way, so no process of a closed session is left running.
 * </ul>
 */
final class PerTurnCliSession extends CliSession {
  /** The previous turn's process being stopped: done once it has exited; null when none. */
  private CompletableFuture<Void> previous;

  /** That process, to kill when waiting for it is interrupted. */
  private CliProcess previousProcess;

  PerTurnCliSession(Parts parts, SessionSpec spec, String id, boolean resumed) {
    super(parts, spec, id, resumed);
  }

  @Override
  CliProcess processFor(boolean resume) {
    if (!awaitPrevious()) {
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
    awaitPrevious();
  }

  /**
   * Waits until the previous turn's process has exited or been killed (7 s at most: 5 s to exit,
   * then the kill). False when the thread was interrupted meanwhile: the process is killed and the
   * thread keeps its interrupt flag.
   */
  private boolean awaitPrevious() {
    if (previous == null) {
      return true;
    }
    try {
      previous.get();
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
