package dev.legio.app.server;

import dev.legio.app.conversation.Printable;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a malformed or ambiguous URI, headers too large...) as the API's errors
 * are: {@code {"error": "..."}} in JSON, never an HTML page or a stack trace.
 */
final class JsonErrors implements Request.Handler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    int status =
        request.getAttribute(ErrorHandler.ERROR_STATUS) instanceof Integer code
            ? code
            : response.getStatus();
    Object message = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
    String reason = HttpStatus.getMessage(status);
    String error =
        message == null || message.toString().isBlank()
            ? reason
            : reason + ": " + Printable.of(message.toString());
    byte[] body = Json.MAPPER.writeValueAsBytes(Map.of("error", error));
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
