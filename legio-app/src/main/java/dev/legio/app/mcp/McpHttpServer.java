package dev.legio.app.mcp;

import dev.legio.app.http.CannotListenException;
import dev.legio.app.http.ListeningConnector;
import dev.legio.config.LegioConfig;
import dev.legio.mcp.McpTokens;
import dev.legio.tools.Toolset;
import java.net.URI;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agents' tools over MCP's streamable HTTP transport on a port of their own: an embedded Jetty
 * with {@link McpEndpoint} mounted at {@code http://BIND:PORT/mcp} (and its protected-resource
 * metadata under {@code /.well-known/}). The endpoint holds every rule (origin, token, session,
 * errors); this class only listens.
 */
public final class McpHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(McpHttpServer.class);
  public static final String PATH = "/mcp";

  private final Server jetty;
  private final URI endpoint;
  private final McpEndpoint mcp;

  private McpHttpServer(Server jetty, URI endpoint, McpEndpoint mcp) {
    this.jetty = jetty;
    this.endpoint = endpoint;
    this.mcp = mcp;
  }

  /**
   * Starts listening, accepting only the server's own origin.
   *
   * @param toolsFor the toolset of a caller (made on its first request)
   * @param exists whether a caller still exists (the legatus, or a centurio folder)
   */
  public static McpHttpServer start(
      LegioConfig.Mcp config,
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists) {
    return start(config, tokens, toolsFor, exists, List.of());
  }

  /**
   * Starts listening.
   *
   * @param extraOrigins browser origins accepted besides the server's own
   */
  public static McpHttpServer start(
      LegioConfig.Mcp config,
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      List<String> extraOrigins) {
    return start(config, tokens, toolsFor, exists, extraOrigins, McpEndpoint.DEFAULT_MAX_BODY);
  }

  /**
   * Starts listening.
   *
   * @param extraOrigins browser origins accepted besides the server's own
   * @param maxBody the largest request body, in bytes ({@code [server] max_body_bytes})
   */
  public static McpHttpServer start(
      LegioConfig.Mcp config,
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      List<String> extraOrigins,
      long maxBody) {
    McpEndpoint mcp =
        new McpEndpoint(tokens, toolsFor, exists, config.httpBind(), extraOrigins, maxBody);
    Server jetty = new Server();
    ServerConnector connector =
        ListeningConnector.open(jetty, config.httpBind(), config.httpPort());
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    mcp.mount(context, PATH);
    jetty.setHandler(context);
    try {
      jetty.start();
    } catch (Exception e) {
      try {
        jetty.stop();
      } catch (Exception ignored) {
        // nothing more to release
      }
      throw CannotListenException.of(
          "MCP over HTTP",
          config.httpBind(),
          config.httpPort(),
          e,
          "choose another [mcp] http_port, or set http_enabled = false");
    }
    URI endpoint =
        URI.create(
            "http://"
                + ListeningConnector.address(config.httpBind(), connector.getLocalPort())
                + PATH);
    log.info("serving MCP over HTTP at {}", endpoint);
    return new McpHttpServer(jetty, endpoint, mcp);
  }

  /**
   * The MCP endpoint as a handler for another Jetty server (the Legio server mounts it at {@link
   * #PATH}): the endpoint's servlet context, with its protected-resource metadata. Close the
   * returned endpoint at shutdown.
   */
  public static Mounted mountable(
      LegioConfig.Mcp config,
      String bind,
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists) {
    return mountable(config, bind, tokens, toolsFor, exists, McpEndpoint.DEFAULT_MAX_BODY);
  }

  /** As above, refusing bodies over {@code maxBody} bytes ({@code [server] max_body_bytes}). */
  public static Mounted mountable(
      LegioConfig.Mcp config,
      String bind,
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      long maxBody) {
    McpEndpoint mcp =
        new McpEndpoint(tokens, toolsFor, exists, bind, config.allowedOrigins(), maxBody);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    mcp.mount(context, PATH);
    return new Mounted(context, mcp);
  }

  /** The MCP endpoint's handler, and the endpoint to close at shutdown. */
  public record Mounted(ServletContextHandler handler, McpEndpoint endpoint)
      implements AutoCloseable {
    @Override
    public void close() {
      endpoint.close();
    }
  }

  /** Where clients connect: {@code http://127.0.0.1:8740/mcp}. */
  public URI endpoint() {
    return endpoint;
  }

  @Override
  public void close() {
    mcp.close();
    try {
      jetty.stop();
    } catch (Exception e) {
      log.warn("stopping the MCP HTTP server failed", e);
    }
  }
}
