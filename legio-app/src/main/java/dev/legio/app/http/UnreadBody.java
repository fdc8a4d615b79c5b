package dev.legio.app.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * The body of a request the server refuses without reading it: a wrong or missing token, an unknown
 * path, another method, a body too large, a server that is stopping.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The server never waits for it: what has already arrived is dropped without blocking, so a
 *       client that announces a body and never sends it holds no thread.
 *   <li>When more of it may still come, the answer says {@code Connection: close} and the
 *       connection closes after it: a client not told so would send its next request on a
 *       connection that is being closed, and lose it.
 *   <li>When all of it has arrived (or there is none), the connection stays open for the next
 *       request.
 * </ul>
 */
public final class UnreadBody {
  private UnreadBody() {}

  /** Drops what has arrived of {@code request}'s body; if more may come, closes after answering. */
  public static void dropOrClose(Request request, Response response) {
    if (!drop(request)) {
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }
  }

  /**
   * Drops what has arrived of {@code request}'s body, without waiting for more; whether all of it
   * had arrived. When it had not, the caller's answer must say {@code Connection: close} (for a
   * servlet's answer, which {@link #dropOrClose} cannot reach).
   */
  public static boolean drop(Request request) {
    try {
      return request.consumeAvailable();
    } catch (RuntimeException e) { // a broken body: nothing more to read on this connection
      return false;
    }
  }
}
