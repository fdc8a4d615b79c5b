package dev.legio.app.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Request;

/**
 * A request or an answer whose bytes stop moving, or crawl.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>When nothing has moved on a connection for {@link #IDLE_TIMEOUT} while the server waits to
 *       read a body or to write an answer, that read or write fails: a client that announces a body
 *       and stops sending it holds a thread for that long at most, and gets 408.
 *   <li>A body must arrive whole within twice the idle timeout (60 s) of the server starting to
 *       read it ({@link #withDeadline}): a client that trickles it in, a byte at a time within the
 *       idle timeout, gets 408 when its next bytes come after that (so at most 90 s after the read
 *       began). A whole body of the largest size allowed needs about 20 KiB/s.
 *   <li>Waiting for a turn is not waiting for bytes: a turn that runs longer, with nothing to read
 *       or write meanwhile, is answered as usual, and an event stream with nothing to send stays
 *       open.
 *   <li>A kept-alive connection with no request for that long is closed; the client opens another.
 * </ul>
 */
public final class StalledTransfer {
  /** How long a read or write may wait with nothing moving. */
  public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  /** How many idle timeouts a whole body may take to arrive. */
  private static final int BODY_DEADLINE_IN_IDLE_TIMEOUTS = 2;

  private StalledTransfer() {}

  /**
   * {@code body}, the stream of {@code request}'s body, with the body's deadline: a read that
   * returns bytes after it throws an {@link IOException} that {@link #isStall} recognises. The
   * deadline is checked as each read returns (no timer per request), so a trickle is cut off at
   * most one idle timeout after it.
   */
  public static InputStream withDeadline(InputStream body, Request request) {
    long deadlineMillis =
        BODY_DEADLINE_IN_IDLE_TIMEOUTS
            * request.getConnectionMetaData().getConnector().getIdleTimeout();
    if (deadlineMillis <= 0) {
      return body;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
    return new FilterInputStream(body) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        check(b < 0 ? -1 : 1);
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return check(super.read(b, off, len));
      }

      private int check(int read) throws IOException {
        if (read > 0 && System.nanoTime() - deadline > 0) {
          throw new IOException(new BodyTooSlow(deadlineMillis));
        }
        return read;
      }
    };
  }

  /** True when {@code failure} is a read or write that failed because nothing moved, or crawled. */
  public static boolean isStall(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** The 408's message for a body that stopped arriving ({@code failure}: what the read threw). */
  public static String bodyStopped(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BodyTooSlow slow) {
        return "the request's body did not arrive whole within "
            + slow.deadlineMillis / 1000
            + " s; send the whole body at once";
      }
    }
    return "the request's body stopped arriving before it was complete (nothing came for "
        + IDLE_TIMEOUT.toSeconds()
        + " s); send the whole body at once";
  }

  /** A body still arriving at its deadline. */
  private static final class BodyTooSlow extends TimeoutException {
    private final long deadlineMillis;

    BodyTooSlow(long deadlineMillis) {
      super("the body did not arrive whole within " + deadlineMillis + " ms");
      this.deadlineMillis = deadlineMillis;
    }
  }
}
