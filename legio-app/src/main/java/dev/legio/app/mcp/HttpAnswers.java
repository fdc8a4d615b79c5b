package dev.legio.app.mcp;

import dev.legio.mcp.JsonRpcError;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * How Legio's MCP endpoint writes an answer it makes itself: a JSON-RPC error object (never a
 * serialised exception, a stack trace or a class name), or any JSON body.
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
