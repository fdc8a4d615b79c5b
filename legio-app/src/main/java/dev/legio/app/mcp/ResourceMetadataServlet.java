package dev.legio.app.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.mcp.JsonRpcError;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint, which the {@code
 * resource_metadata} of a 401 points to: the resource's URL, that tokens go in the {@code
 * Authorization} header, and where an operator gets one. Legio's tokens are issued by {@code legio
 * mcp token NAME}, not by an OAuth server, so no {@code authorization_servers} are listed; a client
 * reading this shows the user why it was refused instead of a generic error.
 */
final class ResourceMetadataServlet extends HttpServlet {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final transient Supplier<String> endpointPath;

  ResourceMetadataServlet(Supplier<String> endpointPath) {
    this.endpointPath = endpointPath;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
      response.setHeader("Allow", "GET");
      HttpAnswers.refuse(request, response, 405, JsonRpcError.SERVER_ERROR, "use GET");
      return;
    }
    ObjectNode metadata = JSON.createObjectNode();
    metadata.put("resource", McpEndpoint.base(request) + endpointPath.get());
    metadata.putArray("bearer_methods_supported").add("header");
    metadata.put("resource_name", "Legio MCP tools");
    metadata.put(
        "legio_token_help",
        "Each agent has its own bearer token: `legio mcp token NAME` prints it (it is kept in"
            + " castra/mcp/tokens/NAME). Send it as Authorization: Bearer TOKEN.");
    response.setHeader("Cache-Control", "no-store");
    HttpAnswers.json(response, 200, metadata.toString());
  }
}
