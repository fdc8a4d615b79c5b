package dev.legio.app.http;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * A request or an answer whose bytes stop moving.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>When nothing has moved on a connection for {@link #IDLE_TIMEOUT} while the server waits to
 *       read a body or to write an answer, that read or write fails: a client that announces a body
 *       and stops sending it holds a thread for that long at most, and gets 408. (A body that
 *       trickles in, a byte at a time within the timeout, is not bounded by this.)
 *   <li>Waiting for a turn is not waiting for bytes: a turn that runs longer, with nothing to read
 *       or write meanwhile, is answered as usual, and an event stream with nothing to send stays
 *       open.
 *   <li>A kept-alive connection with no request for that long is closed; the client opens another.
 * </ul>
 */
public final class StalledTransfer {
  /** How long a read or write may wait with nothing moving. */
  public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  private StalledTransfer() {}

  /** True when {@code failure} is a read or write that failed because nothing moved. */
  public static boolean isStall(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** The 408's message for a body that stopped arriving. */
  public static String bodyStopped() {
    return "the request's body stopped arriving before it was complete (nothing came for "
        + IDLE_TIMEOUT.toSeconds()
        + " s); send the whole body at once";
  }
}
