package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;

/**
 * A session in {@link ClaudeCliBackend.Mode#PER_TURN} mode: one process per turn, {@code
 * --session-id <uuid>} on the first and {@code --resume <uuid>} after.
 *
 * <p>Rules: the user's line is written and stdin closed, so the process answers and exits. A
 * finished turn lets it exit (stopped after 5 s at most); a turn that did not finish kills it.
 * Between turns no process runs.
 */
final class PerTurnCliSession extends CliSession {

  PerTurnCliSession(Parts parts, SessionSpec spec, String id, boolean resumed) {
    super(parts, spec, id, resumed);
  }

  @Override
  CliProcess processFor(boolean resume) {
    return start(resume);
  }

  @Override
  void written(CliProcess running) {
    running.closeInput();
  }

  @Override
  void release(CliProcess running, boolean finished) {
    if (finished) {
      running.stop(5_000);
    } else {
      running.kill();
    }
  }

  @Override
  void stop() {}
}
