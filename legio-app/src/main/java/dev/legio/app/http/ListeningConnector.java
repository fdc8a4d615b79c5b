package dev.legio.app.http;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The socket a Legio server listens on (the API's, and MCP's when it has a port of its own).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>It binds to the host its configuration names ({@code 127.0.0.1} unless an operator chose
 *       otherwise) and to its port ({@code 0}: a free one).
 *   <li>Answers do not name the server's software: no {@code Server: Jetty(12.x.y)} header and no
 *       {@code X-Powered-By}. A client needs neither, and a version tells a scanner which known
 *       flaws to try.
 *   <li>Its address is written {@code host:port}, an IPv6 host in brackets ({@code [::1]:8740}), in
 *       URLs, the start-up line and errors alike ({@link #address}).
 * </ul>
 */
public final class ListeningConnector {
  private ListeningConnector() {}

  /** A connector of {@code jetty} on {@code host}:{@code port}, added to it. */
  public static ServerConnector open(Server jetty, String host, int port) {
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost(host);
    connector.setPort(port);
    jetty.addConnector(connector);
    return connector;
  }

  /**
   * Whether a server bound to {@code bind} listens on every interface: {@code 0.0.0.0}, {@code ::}
   * (bracketed or not), or no address at all. Its clients on this machine reach it at loopback;
   * others, by a name of the machine's.
   */
  public static boolean isEveryInterface(String bind) {
    String host = bind.strip();
    return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
  }

  /** {@code host:port}, an IPv6 host in brackets, as a URL's authority writes it. */
  public static String address(String host, int port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
