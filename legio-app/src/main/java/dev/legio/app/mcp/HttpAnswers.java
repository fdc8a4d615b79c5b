package dev.legio.app.mcp;

import dev.legio.app.http.UnreadBody;
import dev.legio.mcp.JsonRpcError;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;

/**
 * How Legio's MCP endpoint writes an answer it makes itself: a JSON-RPC error object (never a
 * serialised exception, a stack trace or a class name), or any JSON body; a refusal leaves the
 * request's body unread without losing the client's next request ({@link #refuse}).
 */
final class HttpAnswers {
  private HttpAnswers() {}

  static void error(HttpServletResponse response, int status, JsonRpcError error)
      throws IOException {
    json(response, status, error.toJsonText());
  }

  static void error(HttpServletResponse response, int status, int code, String message)
      throws IOException {
    error(response, status, JsonRpcError.withoutId(code, message));
  }

  /**
   * Answers {@code status} with a JSON-RPC error to a request that is refused, after the rule of
   * {@link UnreadBody}: what has arrived of its body is dropped unread, and when more of it may
   * still come the answer says {@code Connection: close}. A client not told so would send its next
   * request on a connection that the server closes because the body was left unread, and lose that
   * request.
   */
  static void refuse(
      HttpServletRequest request, HttpServletResponse response, int status, int code, String why)
      throws IOException {
    if (!UnreadBody.drop(ServletContextRequest.getServletContextRequest(request))) {
      response.setHeader("Connection", "close");
    }
    error(response, status, code, why);
  }

  static void json(HttpServletResponse response, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
    response.getOutputStream().flush();
  }
}
