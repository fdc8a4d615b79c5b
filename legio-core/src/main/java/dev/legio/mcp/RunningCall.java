package dev.legio.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import java.util.Map;
import reactor.util.context.Context;

/**
 * One request a transport handed to the SDK's session, which its client may cancel ({@code
 * notifications/cancelled}, {@link Cancellation}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Cancelled before its tool began: the tool never runs ({@link #begin} is false).
 *   <li>Cancelled while its tool runs: the thread running it is interrupted, so a tool that waits
 *       stops as far as it can; what it returns is dropped by the transport like any answer to a
 *       cancelled request.
 *   <li>Cancelled after its tool ended: nothing is interrupted. The interrupt a cancellation set is
 *       cleared when the tool ends ({@link #end}), so it never reaches the next task of the pool
 *       thread that ran it.
 * </ul>
 *
 * The transport hands the call to the tool's handler in the Reactor context of the session's
 * handling ({@link #context}); the SDK passes it on as the exchange's transport context, where
 * {@link #of} finds it.
 */
public final class RunningCall {
  private static final String KEY = RunningCall.class.getName();

  private enum State {
    WAITING,
    RUNNING,
    ENDED
  }

  private State state = State.WAITING;
  private Thread thread;
  private boolean cancelled;

  /** Cancels the call; false when it was cancelled already. */
  public synchronized boolean cancel() {
    if (cancelled) {
      return false;
    }
    cancelled = true;
    if (state == State.RUNNING) {
      thread.interrupt(); // under the lock: end() has not run, so the tool still owns the thread
    }
    return true;
  }

  /** Whether the client cancelled the call (its answer is then never sent). */
  public synchronized boolean cancelled() {
    return cancelled;
  }

  /** The tool begins on this thread; false, and the tool must not run, when it was cancelled. */
  synchronized boolean begin() {
    if (cancelled || state != State.WAITING) {
      return false;
    }
    state = State.RUNNING;
    thread = Thread.currentThread();
    return true;
  }

  /** The tool ended on this thread: a cancellation interrupts nothing any more. */
  void end() {
    boolean interrupted;
    synchronized (this) {
      interrupted = cancelled && state == State.RUNNING;
      state = State.ENDED;
      thread = null;
    }
    if (interrupted) {
      Thread.interrupted(); // the interrupt was this call's; the thread's next task must not see it
    }
  }

  /** The Reactor context that carries this call to its tool's handler. */
  public Context context() {
    return Context.of(McpTransportContext.KEY, McpTransportContext.create(Map.of(KEY, this)));
  }

  /** The call an exchange carries, or null when its transport gave none. */
  static RunningCall of(McpSyncServerExchange exchange) {
    McpTransportContext context = exchange == null ? null : exchange.transportContext();
    return context != null && context.get(KEY) instanceof RunningCall call ? call : null;
  }
}
