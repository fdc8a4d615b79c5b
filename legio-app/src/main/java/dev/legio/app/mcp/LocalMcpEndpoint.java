package dev.legio.app.mcp;

import dev.legio.app.http.ListeningConnector;
import java.net.URI;
import java.util.Locale;

/**
 * Where a process on this machine (the Claude Code CLI that {@code legio serve} starts) reaches the
 * MCP endpoint of a server listening on {@code BIND:PORT}.
 *
 * <p>Rules: a server bound to every interface ({@code 0.0.0.0}, {@code ::}, or no address) is
 * reached at {@code 127.0.0.1}, so a child process never goes out by a public address; a server
 * bound to {@code localhost} is reached at {@code 127.0.0.1}, the address Java bound it to (the
 * CLI, in Node, may look {@code localhost} up as {@code ::1} first and find nothing there); a
 * server bound to one address ({@code 127.0.0.1}, {@code 10.0.0.5}) is reached at that address, the
 * only one it listens on. The path is {@link McpHttpServer#PATH}.
 */
public record LocalMcpEndpoint(URI uri) {

  /** The endpoint of a server bound to {@code bind} and listening on {@code port}. */
  public static LocalMcpEndpoint of(String bind, int port) {
    String host = bind.strip().toLowerCase(Locale.ROOT);
    boolean everyInterface = ListeningConnector.isEveryInterface(host);
    // "localhost" is where Java bound the server (127.0.0.1); Node may look it up as ::1 first.
    boolean loopbackByName = host.equals("localhost");
    String address =
        ListeningConnector.address(everyInterface || loopbackByName ? "127.0.0.1" : bind, port);
    return new LocalMcpEndpoint(URI.create("http://" + address + McpHttpServer.PATH));
  }
}
