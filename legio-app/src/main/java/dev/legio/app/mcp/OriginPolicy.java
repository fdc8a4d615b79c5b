package dev.legio.app.mcp;

import dev.legio.app.http.ListeningConnector;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which {@code Host} and {@code Origin} headers the MCP endpoint accepts: its defence against DNS
 * rebinding (a web page whose name resolves to 127.0.0.1 calling a local server from a browser).
 *
 * <ul>
 *   <li>{@code Host}: its name must be one the server is reached by: {@code localhost}, {@code
 *       127.0.0.1}, {@code [::1]} or the bound address. A server bound to every interface ({@code
 *       0.0.0.0}, {@code ::}) takes any name; the {@code Origin} rule still applies. The port is
 *       not compared (a port forward or proxy may change it).
 *   <li>{@code Origin}: absent is allowed (clients that are not browsers send none). Present, it
 *       must be the server's own (an accepted host name on the port the request came in on, or the
 *       {@code Host} header's name when bound to every interface) or one of the configured extra
 *       origins; anything else, {@code null} included, is refused with 403.
 * </ul>
 */
record OriginPolicy(Set<String> hosts, boolean anyHost, Set<String> extraOrigins) {
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1");

  /**
   * @param bind the address the server listens on
   * @param extraOrigins origins accepted besides the server's own ({@code
   *     https://app.example.com}), e.g. a web client's
   */
  static OriginPolicy forBind(String bind, Collection<String> extraOrigins) {
    Set<String> hosts = new TreeSet<>(LOOPBACK);
    String b = bareHost(bind);
    hosts.add(b);
    boolean any = ListeningConnector.isEveryInterface(bind);
    Set<String> extra = new TreeSet<>();
    for (String o : extraOrigins) {
      extra.add(normalizeOrigin(o));
    }
    return new OriginPolicy(Set.copyOf(hosts), any, Set.copyOf(extra));
  }

  /** Whether a {@code Host} header names this server. */
  boolean hostAllowed(String hostHeader) {
    if (hostHeader == null || hostHeader.isBlank()) {
      return true; // HTTP/1.0; Jetty refuses an HTTP/1.1 request without Host itself
    }
    return anyHost || hosts.contains(hostName(hostHeader));
  }

  /** Whether an {@code Origin} header is allowed on a request that came in on {@code localPort}. */
  boolean originAllowed(String origin, String hostHeader, int localPort) {
    if (origin == null) {
      return true;
    }
    String normalized = normalizeOrigin(origin);
    if (extraOrigins.contains(normalized)) {
      return true;
    }
    URI uri;
    try {
      uri = new URI(normalized);
    } catch (URISyntaxException e) {
      return false;
    }
    String scheme = uri.getScheme();
    if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
      return false;
    }
    int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
    String host = bareHost(uri.getHost());
    boolean known =
        anyHost ? hostHeader != null && host.equals(hostName(hostHeader)) : hosts.contains(host);
    return known && port == localPort;
  }

  private static String normalizeOrigin(String origin) {
    String o = origin.strip().toLowerCase(Locale.ROOT);
    return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
  }

  /** The name in a Host header, without port or IPv6 brackets, lower-cased. */
  static String hostName(String hostHeader) {
    String h = hostHeader.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? h : h.substring(1, end);
    }
    int colon = h.indexOf(':');
    return colon < 0 ? h : h.substring(0, colon);
  }

  private static String bareHost(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }
}
