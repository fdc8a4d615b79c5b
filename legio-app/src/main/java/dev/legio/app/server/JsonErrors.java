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
 * are: {@code {"error": "..."}} in JSON, never an HTML page or a stack trace; a server error (5xx)
 * never repeats its exception's text, which may name the server's files. A path whose %-escapes are
 * not UTF-8 ({@code %ff}) is said so, with how to send it ({@link PercentEncoding}); an ambiguous
 * or suspicious one ({@code %2F}, {@code //}), and a refused header ({@code Multiple
 * Content-Lengths}, a control character), with what to fix after Jetty's own words ({@link
 * JettyRefusalAdvice}); a 405 (a console page posted to) with the methods its {@code Allow} header
 * names, as the API's own 405 does.
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
      // Not an error: Jetty answers an OPTIONS of a console asset through here with 200, its Allow
      // and Content-Length: 0 already set. A body there would break its own Content-Length (and
      // turn the answer into a 500 with a stack trace in the log).
      response.write(true, null, callback);
      return true;
    }
    Object message = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
    String reason = HttpStatus.getMessage(status);
    String said = message == null ? "" : message.toString().strip();
    String allow = response.getHeaders().get(HttpHeader.ALLOW);
    String error =
        status == HttpStatus.METHOD_NOT_ALLOWED_405 && allow != null && !allow.isBlank()
            ? reason
                + ": "
                + request.getMethod()
                + " is not taken here; use "
                + String.join(" or ", allow.split("\\s*,\\s*"))
            : status == 400 && said.equalsIgnoreCase(JETTY_BAD_UTF8)
                ? reason + ": the path is not UTF-8, percent-encoded; " + PercentEncoding.HOW
                : status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505
                    ? reason + ": " + advice(status) // the client's doing: nothing is in the log
                    : status >= 500
                        ? reason
                            + ": internal error; see Legio's log file" // an exception's text stays
                        // there
                        : said.isEmpty() || said.equalsIgnoreCase(reason)
                            ? reason + ": " + advice(status)
                            : reason + ": " + Quoted.of(said) + explained(said);
    byte[] body = Json.MAPPER.writeValueAsBytes(Map.of("error", error));
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  /** What to fix after Jetty's own words ({@link JettyRefusalAdvice}). */
  private static String explained(String said) {
    String advice = JettyRefusalAdvice.of(said);
    return advice.isEmpty() ? "" : ": " + advice;
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
