package dev.legio.app.server;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A {@code CONNECT} is never a tunnel here: it is answered (the console's 405, {@code Allow: GET,
 * HEAD}) and its connection closed.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every answer to a {@code CONNECT} says {@code Connection: close}, and the server closes the
 *       connection once it is sent, whatever {@code Connection} header the request had. Jetty
 *       otherwise keeps a {@code CONNECT}'s connection open for the tunnel it expects (ignoring the
 *       client's own {@code Connection: close}, answering an HTTP/1.0 one {@code keep-alive}), so a
 *       client waited for the idle timeout, and what it sent next, meant for a tunnel, would have
 *       been read as requests.
 *   <li>So does Jetty's own refusal of a {@code CONNECT} it could read ({@code CONNECT [::1]:80}
 *       with another {@code Host}: {@code Authority!=Host}), which {@link JsonErrors} writes and
 *       which Jetty otherwise answered with the connection kept open. (One it cannot read, {@code
 *       CONNECT /path}, is no longer a {@code CONNECT} to Jetty, which closes its connection.)
 *   <li>Any other method is passed on untouched.
 * </ul>
 */
final class ConnectNotTunnelled extends Handler.Wrapper {
  ConnectNotTunnelled(Handler handler) {
    super(handler);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    closeAfterConnect(request, response);
    return super.handle(request, response, callback);
  }

  /**
   * Says {@code Connection: close} on the answer to a {@code CONNECT}, so that the server closes
   * its connection once the answer is sent; any other request's answer is left as it is.
   */
  static void closeAfterConnect(Request request, Response response) {
    if (HttpMethod.CONNECT.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }
  }
}
