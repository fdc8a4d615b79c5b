package dev.legio.app.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.util.Callback;

/**
 * Writes server-sent events to one response: {@code id:} (when given), {@code event:}, and the data
 * as one {@code data:} line (JSON has no raw newlines, so an event is always one frame). Each event
 * is flushed at once. Closing ends the response; a write to a client that left throws.
 */
final class SseStream implements AutoCloseable {
  private final OutputStream out;
  private final Callback callback;
  private boolean closed;

  SseStream(OutputStream out, Callback callback) {
    this.out = out;
    this.callback = callback;
  }

  synchronized void send(ServerEvent event) throws IOException {
    StringBuilder frame = new StringBuilder(event.data().length() + 48);
    if (event.id() != null) {
      frame.append("id: ").append(event.id()).append('\n');
    }
    frame.append("event: ").append(event.name()).append('\n');
    frame.append("data: ").append(event.data()).append("\n\n");
    out.write(frame.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** A comment line, which clients ignore: keeps idle connections from timing out. */
  synchronized void keepAlive() throws IOException {
    out.write(": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Ends the response. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      callback.succeeded();
    } catch (IOException e) {
      callback.failed(e);
    }
  }

  /** Ends the response after the client left or a write failed. */
  synchronized void abort(Throwable cause) {
    if (closed) {
      return;
    }
    closed = true;
    callback.failed(cause);
  }
}
