package dev.legio.app.server;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * A request whose body has been looked at, without waiting, to tell whether it has arrived whole.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The look reads what has arrived, if anything ({@link Request#read}, which never blocks) and
 *       keeps it: the endpoint reads the body as if nothing had been taken (that chunk first, then
 *       the rest of the body).
 *   <li>A body has arrived whole when what arrived is its last part, or as many bytes as its {@code
 *       Content-Length} (the usual JSON of a few hundred bytes: in the packet of its headers, or
 *       the next); a request without a body has none to wait for. Such a body is read and checked
 *       on the API's thread, as before, with no hand-off.
 *   <li>A body none of which has arrived yet is looked at once more when its first bytes arrive
 *       ({@link #demand}, holding no thread meanwhile): a client that sends its headers and its
 *       body in two writes (the JDK's client does) is then still handled on an API thread.
 *   <li>A body still on its way after that is read on a virtual thread ({@link ApiRouter}): a
 *       client that trickles its body, or announces one and stops, then holds no API thread for the
 *       up to 60 s its read may take ({@link dev.legio.app.http.StalledTransfer}). With the API's
 *       200 threads each held so by a client of a gateway's or a task's token, no other request of
 *       any client was answered, not even {@code /healthz}, until the bodies' deadline.
 * </ul>
 */
final class ArrivedBody extends Request.Wrapper {
  private Content.Chunk first;
  private boolean whole;

  private ArrivedBody(Request request, Content.Chunk first) {
    super(request);
    this.first = first;
    this.whole = whole(first, request.getLength());
  }

  private static boolean whole(Content.Chunk chunk, long length) {
    return chunk != null
        && (chunk.isLast()
            || Content.Chunk.isFailure(chunk)
            || (length >= 0 && chunk.remaining() >= length));
  }

  /** {@code request}, its body looked at without waiting. */
  static ArrivedBody of(Request request) {
    return new ArrivedBody(request, request.getLength() == 0 ? Content.Chunk.EOF : request.read());
  }

  /** True when the body has arrived whole (or there is none, or it is already known broken). */
  synchronized boolean whole() {
    return whole;
  }

  /** True when none of the body has arrived yet (nothing was looked at). */
  synchronized boolean nothingArrived() {
    return first == null;
  }

  /** Looks again, without waiting, at what has arrived (called when some has: {@link #demand}). */
  void lookAgain() {
    synchronized (this) {
      if (first != null) {
        return;
      }
    }
    Content.Chunk arrived = super.read();
    synchronized (this) {
      first = arrived;
      whole = whole(arrived, getLength());
    }
  }

  @Override
  public Content.Chunk read() {
    Content.Chunk kept;
    synchronized (this) {
      kept = first;
      first = null;
    }
    return kept != null ? kept : super.read();
  }

  @Override
  public void demand(Runnable demandCallback) {
    boolean kept;
    synchronized (this) {
      kept = first != null;
    }
    if (kept) {
      demandCallback.run(); // what was kept can be read at once
    } else {
      super.demand(demandCallback);
    }
  }

  @Override
  public boolean consumeAvailable() {
    Content.Chunk kept;
    synchronized (this) {
      kept = first;
      first = null;
    }
    if (kept != null) {
      kept.release();
      if (kept.isLast()) {
        return !Content.Chunk.isFailure(kept);
      }
    }
    return super.consumeAvailable();
  }
}
