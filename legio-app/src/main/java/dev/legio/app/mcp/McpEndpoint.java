package dev.legio.app.mcp;

import dev.legio.app.http.AcceptHeader;
import dev.legio.app.http.BearerHeader;
import dev.legio.app.http.ContentEncodingRefusal;
import dev.legio.app.http.ListeningConnector;
import dev.legio.app.http.StalledTransfer;
import dev.legio.app.http.Utf8Body;
import dev.legio.config.PraetoriumSettings;
import dev.legio.config.ServerSettings;
import dev.legio.mcp.IncomingMessage;
import dev.legio.mcp.IncomingMessageCheck;
import dev.legio.mcp.JsonRpcError;
import dev.legio.mcp.McpTokens;
import dev.legio.mcp.McpToolServer;
import dev.legio.mcp.McpVersions;
import dev.legio.tools.Toolset;
import io.modelcontextprotocol.server.McpSyncServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agents' tools over MCP's streamable HTTP transport, as one servlet that any Jetty server can
 * mount at a path ({@link #mount}); {@link McpHttpServer} mounts it on its own port at {@code
 * /mcp}. Every check is inside it, in this order:
 *
 * <ol>
 *   <li>{@code Host} and {@code Origin} ({@link OriginPolicy}): 403 when they are not this server's
 *       (DNS rebinding).
 *   <li>{@code Authorization: Bearer TOKEN}, read as the API reads it ({@link BearerHeader}: any
 *       case, spaces or tabs after the scheme), its token looked up in {@link McpTokens}: a missing
 *       header, one of another shape, a missing or unknown token, or the token of an agent that no
 *       longer exists, gets 401 with {@code WWW-Authenticate: Bearer realm="legio",
 *       resource_metadata="…/.well-known/oauth-protected-resource/PATH"} ({@code
 *       error="invalid_token"} only for a well-formed token that is refused: unknown, or its agent
 *       removed) and reaches no tool; two {@code Authorization} headers get 400. Tokens are never
 *       logged.
 *   <li>{@code MCP-Protocol-Version}, when sent, must be one of {@link McpVersions#SUPPORTED}: else
 *       400.
 *   <li>POST: {@code Content-Type: application/json} and no {@code Content-Encoding} but {@code
 *       identity} ({@link dev.legio.app.http.ContentEncodingRefusal}) (else 415), an {@code Accept}
 *       taking both {@code application/json} and {@code text/event-stream} as RFC 9110 weighs it
 *       ({@link AcceptHeader}: a wildcard such as {@code *}{@code /*} or {@code text/*} takes,
 *       {@code q=0} refuses; no header takes nothing, as MCP's clients must send one) (else 406), a
 *       body of at most {@code [server] max_body_bytes} (as the API; {@link #DEFAULT_MAX_BODY} when
 *       none is given; else 413) that arrives in time (else 408, {@link
 *       dev.legio.app.http.StalledTransfer}), in UTF-8 as the API reads it ({@link Utf8Body}: else
 *       400 with {@code -32700} naming the byte offset; bytes that are not UTF-8 are never read as
 *       U+FFFD, so a tool never stores text other than what was sent), then {@link
 *       IncomingMessageCheck}: not JSON 400 with {@code -32700}, not JSON-RPC 400 with {@code
 *       -32600}, bad params 200 with {@code -32602}. GET needs an {@code Accept} taking {@code
 *       text/event-stream}, weighed alike (else 406). Other methods: 405.
 * </ol>
 *
 * Every refusal is a JSON-RPC error object whose message says what to send instead; never a stack
 * trace. A refusal made before the body was read drops what has arrived of it and, when more may
 * still come, says {@code Connection: close} ({@link dev.legio.app.http.UnreadBody}). Each caller
 * has its own MCP server, toolset and sessions ({@link CallerTransport}): a session opened with one
 * agent's token is unknown to every other agent's server.
 */
public final class McpEndpoint extends HttpServlet {
  private static final Logger log = LoggerFactory.getLogger(McpEndpoint.class);

  /**
   * The largest POST body read when none is configured: the API's default, {@link
   * ServerSettings#defaults} for the default {@code [praetorium] max_message_bytes} (3 × 1 MiB + 64
   * KiB). {@code legio serve} passes its {@code [server] max_body_bytes} (by default 3 × {@code
   * max_message_bytes} + 64 KiB), so that a message the praetorium takes fits over MCP too.
   */
  public static final long DEFAULT_MAX_BODY =
      ServerSettings.defaults(PraetoriumSettings.DEFAULT_MAX_MESSAGE_BYTES).maxBodyBytes();

  /** Where RFC 9728 protected-resource metadata is served (and, after it, the endpoint's path). */
  public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

  private final transient McpTokens tokens;
  private final transient Function<String, Toolset> toolsFor;
  private final transient Predicate<String> exists;
  private final transient OriginPolicy origins;
  private final transient Supplier<CallerTransport> transports;
  private final long maxBody;
  private final transient Map<String, Caller> callers = new ConcurrentHashMap<>();
  private volatile String path = "/mcp";

  private record Caller(
      CallerTransport transport, McpSyncServer server, IncomingMessageCheck check) {}

  /**
   * @param tokens who a bearer token belongs to
   * @param toolsFor the toolset of a caller (made on its first request)
   * @param exists whether a caller still exists (the legatus, or a centurio folder)
   * @param bind the address the server listens on (for the {@code Host} rule)
   * @param extraOrigins origins accepted besides the server's own
   */
  public McpEndpoint(
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      String bind,
      List<String> extraOrigins) {
    this(tokens, toolsFor, exists, bind, extraOrigins, DEFAULT_MAX_BODY, CallerTransport::new);
  }

  /**
   * As above, refusing with 413 a body over {@code maxBody} bytes ({@code [server]
   * max_body_bytes}).
   */
  public McpEndpoint(
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      String bind,
      List<String> extraOrigins,
      long maxBody) {
    this(tokens, toolsFor, exists, bind, extraOrigins, maxBody, CallerTransport::new);
  }

  /** As above, each caller's transport made by {@code transports} (tests: other limits). */
  McpEndpoint(
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      String bind,
      List<String> extraOrigins,
      Supplier<CallerTransport> transports) {
    this(tokens, toolsFor, exists, bind, extraOrigins, DEFAULT_MAX_BODY, transports);
  }

  private McpEndpoint(
      McpTokens tokens,
      Function<String, Toolset> toolsFor,
      Predicate<String> exists,
      String bind,
      List<String> extraOrigins,
      long maxBody,
      Supplier<CallerTransport> transports) {
    if (maxBody < 1 || maxBody > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("maxBody must be from 1 to 2 GiB: " + maxBody);
    }
    this.maxBody = maxBody;
    this.transports = Objects.requireNonNull(transports);
    this.tokens = Objects.requireNonNull(tokens);
    this.toolsFor = Objects.requireNonNull(toolsFor);
    this.exists = Objects.requireNonNull(exists);
    this.origins = OriginPolicy.forBind(bind, extraOrigins);
  }

  /**
   * Mounts the endpoint at {@code path} (e.g. {@code /mcp}) in a servlet context, with its
   * protected-resource metadata at {@link #WELL_KNOWN} and {@code WELL_KNOWN + path}.
   */
  public void mount(ServletContextHandler context, String path) {
    this.path = path;
    ServletHolder holder = new ServletHolder(this);
    holder.setAsyncSupported(true);
    context.addServlet(holder, path);
    ServletHolder metadata = new ServletHolder(new ResourceMetadataServlet(this::path));
    context.addServlet(metadata, WELL_KNOWN);
    context.addServlet(
        new ServletHolder(new ResourceMetadataServlet(this::path)), WELL_KNOWN + path);
  }

  String path() {
    return path;
  }

  /** Ends every session and server. */
  public void close() {
    for (Caller c : callers.values()) {
      try {
        c.server().close();
      } catch (RuntimeException e) {
        log.warn("closing an MCP server failed", e);
      }
    }
    callers.clear();
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try {
      handle(request, response);
    } catch (RuntimeException e) {
      log.error("MCP request {} {} failed", request.getMethod(), request.getRequestURI(), e);
      if (!response.isCommitted()) {
        response.reset();
        HttpAnswers.refuse(
            request,
            response,
            500,
            JsonRpcError.INTERNAL_ERROR,
            "internal error: the server's log (castra/logs/legio.log) says why");
      }
    }
  }

  private void handle(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String host = request.getHeader("Host");
    if (!origins.hostAllowed(host)) {
      refuseOrigin(request, response, "Host '" + host + "'");
      return;
    }
    String origin = request.getHeader("Origin");
    if (!origins.originAllowed(origin, host, request.getLocalPort())) {
      refuseOrigin(request, response, "Origin '" + origin + "'");
      return;
    }
    Optional<String> caller = authenticate(request, response);
    if (caller.isEmpty()) {
      return;
    }
    String version = request.getHeader("MCP-Protocol-Version");
    if (version != null && !McpVersions.SUPPORTED.contains(version.strip())) {
      HttpAnswers.refuse(
          request,
          response,
          400,
          JsonRpcError.SERVER_ERROR,
          "unsupported MCP-Protocol-Version '"
              + version
              + "'; this server speaks "
              + String.join(", ", McpVersions.SUPPORTED));
      return;
    }
    Caller endpoint;
    try {
      endpoint = callers.computeIfAbsent(caller.get(), this::open);
    } catch (RuntimeException e) {
      log.error("cannot open the MCP server of {}", caller.get(), e);
      HttpAnswers.refuse(
          request,
          response,
          500,
          JsonRpcError.INTERNAL_ERROR,
          "internal error: cannot open the MCP server of "
              + caller.get()
              + "; the server's log says why");
      return;
    }
    String session = request.getHeader("Mcp-Session-Id");
    switch (request.getMethod()) {
      case "POST" -> post(endpoint, session, request, response);
      case "GET" -> {
        if (!accepts(request, "text/event-stream")) {
          HttpAnswers.refuse(
              request,
              response,
              406,
              JsonRpcError.SERVER_ERROR,
              "GET opens an event stream: send Accept: text/event-stream");
          return;
        }
        endpoint.transport().get(session, request.getHeader("Last-Event-ID"), response);
      }
      case "DELETE" -> endpoint.transport().delete(session, response);
      default -> {
        response.setHeader("Allow", "GET, POST, DELETE");
        HttpAnswers.refuse(
            request,
            response,
            405,
            JsonRpcError.SERVER_ERROR,
            request.getMethod() + " is not supported here: use POST, GET or DELETE");
      }
    }
  }

  private void post(
      Caller endpoint, String session, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String type = request.getContentType();
    if (type == null || !type.toLowerCase(Locale.ROOT).strip().startsWith("application/json")) {
      HttpAnswers.refuse(
          request,
          response,
          415,
          JsonRpcError.SERVER_ERROR,
          "send the JSON-RPC message with Content-Type: application/json (got "
              + (type == null ? "none" : "'" + type + "'")
              + ")");
      return;
    }
    String encoded =
        ContentEncodingRefusal.of(Collections.list(request.getHeaders("Content-Encoding")))
            .orElse(null);
    if (encoded != null) {
      response.setHeader(ContentEncodingRefusal.ACCEPT_ENCODING, ContentEncodingRefusal.IDENTITY);
      HttpAnswers.refuse(request, response, 415, JsonRpcError.SERVER_ERROR, encoded);
      return;
    }
    if (!accepts(request, "application/json") || !accepts(request, "text/event-stream")) {
      HttpAnswers.refuse(
          request,
          response,
          406,
          JsonRpcError.SERVER_ERROR,
          "send Accept: application/json, text/event-stream (a request may be answered with"
              + " either)");
      return;
    }
    byte[] body = null;
    // A body declared over the limit is refused before a byte of it is waited for.
    if (request.getContentLengthLong() <= maxBody) {
      try (InputStream in =
          StalledTransfer.withDeadline(
              request.getInputStream(), ServletContextRequest.getServletContextRequest(request))) {
        body = in.readNBytes((int) maxBody + 1);
      } catch (IOException e) {
        if (!StalledTransfer.isStall(e)) {
          throw e;
        }
        // The rest of the body never came: the connection closes after the answer, and says so.
        HttpAnswers.refuse(
            request, response, 408, JsonRpcError.SERVER_ERROR, StalledTransfer.bodyStopped(e));
        return;
      }
    }
    if (body == null || body.length > maxBody) {
      HttpAnswers.refuse(
          request,
          response,
          413,
          JsonRpcError.INVALID_REQUEST,
          "the message is larger than "
              + maxBody
              + " bytes ([server] max_body_bytes, by default 3 × [praetorium] max_message_bytes"
              + " + 64 KiB)");
      return;
    }
    String text;
    try {
      text = Utf8Body.text(body);
    } catch (Utf8Body.NotUtf8 notUtf8) {
      // As the API: bytes that are not UTF-8 are never read as U+FFFD (a tool would store them so).
      HttpAnswers.error(response, 400, JsonRpcError.PARSE_ERROR, notUtf8.getMessage());
      return;
    }
    switch (endpoint.check().check(text)) {
      case IncomingMessage.Rejected(JsonRpcError answer) -> {
        if (answer == null) {
          response.setStatus(HttpServletResponse.SC_ACCEPTED);
        } else {
          boolean malformed =
              answer.code() == JsonRpcError.PARSE_ERROR
                  || answer.code() == JsonRpcError.INVALID_REQUEST;
          HttpAnswers.error(response, malformed ? 400 : 200, answer);
        }
      }
      case IncomingMessage.Accepted(var message) ->
          endpoint.transport().post(message, session, response);
    }
  }

  /**
   * The caller a request's token belongs to, read as the API reads it ({@link BearerHeader}); else
   * empty, the request refused: 401 with a challenge naming the protected-resource metadata ({@code
   * error="invalid_token"} only for a well-formed token that is refused: unknown, or its agent
   * removed), or 400 for more than one {@code Authorization} header.
   */
  private Optional<String> authenticate(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    BearerHeader.Reading reading =
        BearerHeader.of(ServletContextRequest.getServletContextRequest(request).getHeaders());
    String why;
    switch (reading) {
      case BearerHeader.Token(String token) -> {
        Optional<String> caller = tokens.callerOf(token);
        if (caller.isPresent() && exists.test(caller.get())) {
          return caller;
        }
        why = "unknown token: send Authorization: Bearer TOKEN";
      }
      case BearerHeader.Refusal refusal -> why = refusal.advice();
    }
    log.warn("MCP request from {} refused: {}", request.getRemoteAddr(), why);
    if (reading == BearerHeader.Refusal.REPEATED) {
      HttpAnswers.refuse(request, response, 400, JsonRpcError.SERVER_ERROR, why);
      return Optional.empty();
    }
    String challenge =
        "Bearer realm=\"legio\""
            + (reading instanceof BearerHeader.Token
                ? ", error=\"invalid_token\", error_description=\"unknown token\""
                : "")
            + ", resource_metadata=\""
            + base(request)
            + WELL_KNOWN
            + path
            + "\"";
    response.setHeader("WWW-Authenticate", challenge);
    HttpAnswers.refuse(
        request,
        response,
        401,
        JsonRpcError.SERVER_ERROR,
        why
            + ", where TOKEN is the agent's token in castra/mcp/tokens/NAME (legio mcp token NAME"
            + " prints it)");
    return Optional.empty();
  }

  private void refuseOrigin(HttpServletRequest request, HttpServletResponse response, String what)
      throws IOException {
    log.warn("MCP request from {} refused: {} is not allowed", request.getRemoteAddr(), what);
    HttpAnswers.refuse(
        request,
        response,
        403,
        JsonRpcError.SERVER_ERROR,
        what
            + " is not allowed: this MCP server answers only requests addressed to itself (DNS"
            + " rebinding protection); a web client's origin must be configured as an allowed"
            + " origin");
  }

  /**
   * Whether the request's {@code Accept} takes {@code type}, weighed as the API weighs it ({@link
   * AcceptHeader}: {@code q=0} refuses, {@code text/*} and {@code *}{@code /*} take); an absent or
   * empty header takes nothing here, since MCP's clients must list what they take.
   */
  private static boolean accepts(HttpServletRequest request, String type) {
    String accept = request.getHeader("Accept");
    return accept != null && !accept.isBlank() && AcceptHeader.of(accept).takes(type);
  }

  /** {@code http://HOST} as the client addressed this server (the Host header was checked). */
  static String base(HttpServletRequest request) {
    String host = request.getHeader("Host");
    if (host == null || host.isBlank()) {
      host = ListeningConnector.address(request.getLocalAddr(), request.getLocalPort());
    }
    return request.getScheme() + "://" + host;
  }

  private Caller open(String caller) {
    CallerTransport transport = transports.get();
    Toolset tools = toolsFor.apply(caller);
    McpSyncServer server = McpToolServer.serve(transport, caller, tools);
    log.info("MCP over HTTP: opened the server of {}", caller);
    return new Caller(transport, server, McpToolServer.check(tools));
  }
}
