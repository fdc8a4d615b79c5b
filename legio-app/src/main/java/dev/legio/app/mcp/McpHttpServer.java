package dev.legio.app.mcp;

import dev.legio.config.LegioConfig;
import dev.legio.mcp.McpTokens;
import dev.legio.mcp.McpToolServer;
import dev.legio.tools.Toolset;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agents' tools over MCP's streamable HTTP transport (embedded Jetty and the MCP SDK's servlet
 * transport), at {@code http://BIND:PORT/mcp}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every request carries {@code Authorization: Bearer TOKEN}; the token says who calls (see
 *       {@link McpTokens}). A missing or unknown token, or the token of an agent that no longer
 *       exists, gets 401 and reaches no tool. Tokens are never logged.
 *   <li>Each caller has its own MCP server with its own toolset and its own sessions: a session id
 *       opened with one agent's token is unknown to every other agent's server.
 * </ul>
 */
public final class McpHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(McpHttpServer.class);
  public static final String PATH = "/mcp";

  private final Server jetty;
  private final URI endpoint;
  private final Map<String, Endpoint> endpoints;

  private record Endpoint(
      HttpServletStreamableServerTransportProvider transport, McpSyncServer server) {}

  private McpHttpServer(Server jetty, URI endpoint, Map<String, Endpoint> endpoints) {
    this.jetty = jetty;
    this.endpoint = endpoint;
    this.endpoints = endpoints;
  }

  /**
   * Starts listening.
   *
   * @param toolsFor the toolset of a caller (made on its first request)
   * @param exists whether a caller still exists (the legatus, or a centurio folder)
   */
  public static McpHttpServer start(
      LegioConfig.Mcp config,
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists) {
    Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost(config.httpBind());
    connector.setPort(config.httpPort());
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder holder =
        new ServletHolder(new AuthenticatingServlet(tokens, toolsFor, exists, endpoints));
    holder.setAsyncSupported(true);
    context.addServlet(holder, PATH);
    jetty.setHandler(context);
    try {
      jetty.start();
    } catch (Exception e) {
      try {
        jetty.stop();
      } catch (Exception ignored) {
        // nothing more to release
      }
      throw new IllegalStateException(
          "cannot serve MCP over HTTP on "
              + config.httpBind()
              + ":"
              + config.httpPort()
              + " ("
              + e.getMessage()
              + "); choose another [mcp] http_port, or set http_enabled = false",
          e);
    }
    String host =
        config.httpBind().contains(":") ? "[" + config.httpBind() + "]" : config.httpBind();
    URI endpoint = URI.create("http://" + host + ":" + connector.getLocalPort() + PATH);
    log.info("serving MCP over HTTP at {}", endpoint);
    return new McpHttpServer(jetty, endpoint, endpoints);
  }

  /** Where clients connect: {@code http://127.0.0.1:8740/mcp}. */
  public URI endpoint() {
    return endpoint;
  }

  @Override
  public void close() {
    for (Endpoint e : endpoints.values()) {
      try {
        e.server().closeGracefully();
      } catch (RuntimeException ex) {
        log.warn("closing an MCP server failed", ex);
      }
    }
    try {
      jetty.stop();
    } catch (Exception e) {
      log.warn("stopping the MCP HTTP server failed", e);
    }
  }

  private static final class AuthenticatingServlet extends HttpServlet {
    private final transient McpTokens tokens;
    private final transient Function<String, Toolset> toolsFor;
    private final transient Predicate<String> exists;
    private final transient Map<String, Endpoint> endpoints;

    AuthenticatingServlet(
        McpTokens tokens,
        Function<String, Toolset> toolsFor,
        Predicate<String> exists,
        Map<String, Endpoint> endpoints) {
      this.tokens = tokens;
      this.toolsFor = toolsFor;
      this.exists = exists;
      this.endpoints = endpoints;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
        throws ServletException, IOException {
      String header = request.getHeader("Authorization");
      Optional<String> caller =
          header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
              ? tokens.callerOf(header.substring(7).strip())
              : Optional.empty();
      if (caller.isEmpty() || !exists.test(caller.get())) {
        log.warn(
            "MCP request from {} refused: {}",
            request.getRemoteAddr(),
            header == null ? "no Authorization header" : "unknown token");
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setHeader("WWW-Authenticate", "Bearer realm=\"legio\"");
        response.setContentType("application/json");
        response
            .getWriter()
            .write(
                "{\"error\":\"unauthorized\",\"message\":\"send Authorization: Bearer TOKEN, the"
                    + " token in castra/mcp/tokens/NAME (legio mcp token NAME)\"}");
        return;
      }
      Endpoint endpoint;
      try {
        endpoint = endpoints.computeIfAbsent(caller.get(), this::open);
      } catch (RuntimeException e) {
        log.error("cannot open the MCP server of {}", caller.get(), e);
        response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        return;
      }
      endpoint.transport().service(request, response);
    }

    private Endpoint open(String caller) {
      HttpServletStreamableServerTransportProvider transport =
          HttpServletStreamableServerTransportProvider.builder()
              .jsonMapper(McpToolServer.JSON_MAPPER)
              .mcpEndpoint(PATH)
              .build();
      try {
        transport.init(getServletConfig());
      } catch (ServletException e) {
        throw new IllegalStateException(e);
      }
      McpSyncServer server = McpToolServer.serve(transport, caller, toolsFor.apply(caller));
      log.info("MCP over HTTP: opened the server of {}", caller);
      return new Endpoint(transport, server);
    }
  }
}
