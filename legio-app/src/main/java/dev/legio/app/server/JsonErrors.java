package dev.legio.app.server;

import dev.legio.errors.Quoted;
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
 * are: {@code {"error": "..."}} in JSON, never an HTML page or a stack trace; a refused {@code
 * CONNECT}'s connection is closed after it ({@link ConnectNotTunnelled}).
 *
 * <p>Rules: an answer below 400 (Jetty's 200 to an {@code OPTIONS} of a console asset, its {@code
 * Allow} and {@code Content-Length: 0} already set) is sent without a body. Every error starts with
 * its status's reason ({@code Bad Request: }); what follows is the first of these that applies:
 *
 * <ol>
 *   <li>a 405 whose {@code Allow} header names methods (a console page posted to): the method is
 *       not taken here, and the methods to use, as the API's own 405 says;
 *   <li>a 400 for a path whose %-escapes are not UTF-8 ({@code %ff}, Jetty's {@code Bad UTF-8
 *       encoding}): said so, with how to send it ({@link PercentEncoding});
 *   <li>a 505: the versions to send ({@link #advice}); the client's doing, so nothing is in the
 *       log;
 *   <li>any other 5xx: {@code internal error; see Legio's log file}, never the exception's text,
 *       which may name the server's files;
 *   <li>Jetty said no more than the status: what to fix for the status ({@link #advice}); but for a
 *       400 whose parser's failure {@link JettyRefusalAdvice} knows ({@code Bad Authority}: a
 *       {@code CONNECT /path}), that failure's words are taken as Jetty's, for the next rule;
 *   <li>otherwise Jetty's own words, quoted, then what to fix when {@link JettyRefusalAdvice} knows
 *       them ({@code %2F}, {@code //}, {@code Multiple Content-Lengths}, a control character).
 * </ol>
 */
final class JsonErrors implements Request.Handler {
  /** Jetty's refusal of a path whose %-escapes are not UTF-8 ({@code /api/v1/sessions/%ff}). */
  private static final String JETTY_BAD_UTF8 = "Bad UTF-8 encoding";

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    int status =
        request.getAttribute(ErrorHandler.ERROR_STATUS) instanceof Integer code
            ? code
            : response.getStatus();
    if (status < 400) {
      // A body here would break Jetty's own Content-Length (and turn the answer into a 500 with a
      // stack trace in the log).
      response.write(true, null, callback);
      return true;
    }
    Object message = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
    String said = message == null ? "" : message.toString().strip();
    String allow = response.getHeaders().get(HttpHeader.ALLOW);
    String reason = HttpStatus.getMessage(status);
    if (status == HttpStatus.BAD_REQUEST_400 && (said.isEmpty() || said.equalsIgnoreCase(reason))) {
      said = JettyRefusalAdvice.behind(request.getAttribute(ErrorHandler.ERROR_EXCEPTION));
    }
    String error = reason + ": " + detail(status, reason, said, request.getMethod(), allow);
    byte[] body = Json.MAPPER.writeValueAsBytes(Map.of("error", error));
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    ConnectNotTunnelled.closeAfterConnect(request, response);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  /** What follows the reason in an error: the first of the class comment's rules that applies. */
  private static String detail(
      int status, String reason, String said, String method, String allow) {
    if (status == HttpStatus.METHOD_NOT_ALLOWED_405 && allow != null && !allow.isBlank()) {
      return method + " is not taken here; use " + String.join(" or ", allow.split("\\s*,\\s*"));
    }
    if (status == HttpStatus.BAD_REQUEST_400 && said.equalsIgnoreCase(JETTY_BAD_UTF8)) {
      return "the path is not UTF-8, percent-encoded; " + PercentEncoding.HOW;
    }
    if (status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505) {
      return advice(status);
    }
    if (status >= 500) {
      return "internal error; see Legio's log file";
    }
    if (said.isEmpty() || said.equalsIgnoreCase(reason)) {
      return advice(status);
    }
    String advice = JettyRefusalAdvice.of(said);
    return Quoted.of(said) + (advice.isEmpty() ? "" : ": " + advice);
  }

  /** What to fix, for a refusal of Jetty's that says no more than its status. */
  static String advice(int status) {
    return switch (status) {
      case 400 ->
          "the request line or a header cannot be read (in the path: a bad %-escape such as %ZZ,"
              + " an encoded NUL or slash, a '..' segment); fix the URL";
      case 403, 404 ->
          "nothing is served at this path (the console is at /, the API under /api/v1: GET"
              + " /api/v1/openapi.json lists it)";
      case 414 -> "the URL is too long; send long values in a JSON body";
      case 431 -> "the request's headers are too large; send fewer or shorter headers";
      case 505 -> "send HTTP/1.1 (or HTTP/1.0): this server speaks no other version";
      default -> "the server could not take this request as sent";
    };
  }
}
