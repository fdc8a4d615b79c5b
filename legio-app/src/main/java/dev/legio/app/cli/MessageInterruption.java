package dev.legio.app.cli;

import dev.legio.backend.BackendEvent;
import dev.legio.log.Message;
import dev.legio.session.DispatchListener;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Ctrl-C (SIGINT) while a message is sent says of it, during {@code legio say} and during a
 * {@code legio chat} turn: one line on standard error (chat: on its screen), then exit status 130,
 * the JVM's shutdown hooks run as before (the leases handed back). At chat's prompt a Ctrl-C clears
 * the line, as the line editor does.
 *
 * <p>What a Ctrl-C does to the request: {@code legio say} and {@code legio chat} run their turns in
 * their own process, and nothing takes them over when it ends.
 *
 * <ul>
 *   <li>Before the message is logged: it was not sent; nothing is in the log.
 *   <li>Once it is logged, it stays ({@code legio history} shows it). A turn of it cut mid-way, or
 *       still waiting for a busy agent, ends with the process: that agent never answers it, and
 *       nothing in the log says so; replies that came before stay in the log. Sending it again asks
 *       again.
 *   <li>While it is being logged: the line waits up to {@link #SETTLE} for the append to end; if it
 *       has not, the line says that {@code legio history} shows whether it was logged.
 *   <li>Once the turns have ended (their replies being printed): what they answered is in the log.
 * </ul>
 */
final class MessageInterruption implements DispatchListener {
  private static final Logger log = LoggerFactory.getLogger(MessageInterruption.class);

  /** How long the line waits for a message being logged to be logged, or not. */
  static final Duration SETTLE = Duration.ofSeconds(2);

  /** Where the request is. */
  enum Stage {
    NOT_SENT,
    LOGGING,
    LOGGED,
    ENDED
  }

  private final DispatchListener progress;
  private final Duration settle;
  private Stage stage = Stage.NOT_SENT;
  private Message request;

  /**
   * @param progress what hears the agents' events (the status lines)
   */
  MessageInterruption(DispatchListener progress) {
    this(progress, SETTLE);
  }

  MessageInterruption(DispatchListener progress, Duration settle) {
    this.progress = progress;
    this.settle = settle;
  }

  /** The message goes to the engine now. */
  synchronized void sending() {
    stage = Stage.LOGGING;
  }

  @Override
  public synchronized void requestLogged(Message request) {
    this.request = request;
    stage = Stage.LOGGED;
    notifyAll();
  }

  @Override
  public void onEvent(String agent, BackendEvent event) {
    progress.onEvent(agent, event);
  }

  /** The engine is done with the message: its turns ended, or it was not logged (refused). */
  synchronized void ended() {
    stage = stage == Stage.LOGGED ? Stage.ENDED : Stage.NOT_SENT;
    notifyAll();
  }

  /** The line a Ctrl-C prints now (waiting up to the settle time while the message is logged). */
  synchronized String line() throws InterruptedException {
    long deadline = System.nanoTime() + settle.toNanos();
    while (stage == Stage.LOGGING) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return "legio: interrupted while the message was being logged: legio history shows"
            + " whether it was; no reply to it will come";
      }
      wait(Math.max(1, Duration.ofNanos(left).toMillis()));
    }
    return switch (stage) {
      case NOT_SENT -> "legio: interrupted before the message was logged: it was not sent";
      case ENDED ->
          "legio: interrupted after the turns ended: what the agents answered is in the log"
              + " (legio history shows it)";
      case LOGGED -> {
        TreeSet<String> agents = new TreeSet<>(request.audience().names());
        yield agents.size() == 1
            ? "legio: interrupted: your message is logged (legio history shows it), but "
                + agents.first()
                + " had not answered it and will not (its turn ends with this process); send it"
                + " again for a reply"
            : "legio: interrupted: your message is logged (legio history shows it, with any reply"
                + " that came), but the agents that had not answered it will not (their turns end"
                + " with this process); send it again for their replies";
      }
      case LOGGING -> throw new IllegalStateException("waited above");
    };
  }

  /** Gives SIGINT back to the JVM's handling. */
  interface CtrlC extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Until closed, a Ctrl-C prints {@link #line()} on {@code err} and exits with status 130; closed,
   * the JVM's handling is back. Where the JVM keeps SIGINT to itself ({@code -Xrs}), nothing
   * changes.
   */
  CtrlC onCtrlC(PrintWriter err) {
    sun.misc.Signal interrupt = new sun.misc.Signal("INT");
    sun.misc.SignalHandler before;
    try {
      before =
          sun.misc.Signal.handle(
              interrupt,
              signal -> {
                try {
                  String line = line();
                  synchronized (err) {
                    err.println(line);
                    err.flush();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  System.exit(130);
                }
              });
    } catch (IllegalArgumentException e) {
      log.debug("Ctrl-C keeps the JVM's handling: {}", e.getMessage());
      return () -> {};
    }
    return () -> sun.misc.Signal.handle(interrupt, before);
  }
}
