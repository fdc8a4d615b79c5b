package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;

/**
 * A session in {@link ClaudeCliBackend.Mode#PERSISTENT} mode (what the Agent SDK does): one
 * long-lived {@code claude -p --input-format stream-json} process; each turn is one user line on
 * its stdin, answered on its stdout.
 *
 * <p>Rules: the process is started on the first turn and kept between turns. A turn that does not
 * finish (time-out, error, the process died) kills it, and the next turn starts a new one with
 * {@code --resume}; a process found dead is replaced the same way. Closing the session stops it.
 */
final class PersistentCliSession extends CliSession {
  /** The running process, or null. */
  private CliProcess process;

  PersistentCliSession(Parts parts, SessionSpec spec, String id, boolean resumed) {
    super(parts, spec, id, resumed);
  }

  @Override
  CliProcess processFor(boolean resume) {
    if (process == null || !process.isAlive()) {
      stop();
      process = start(resume);
    }
    return process;
  }

  @Override
  void written(CliProcess running) {}

  @Override
  void release(CliProcess running, boolean finished) {
    if (!finished) {
      running.kill();
      process = null;
    }
  }

  @Override
  void stop() {
    if (process != null) {
      process.stop(2_000);
      process = null;
    }
  }
}
