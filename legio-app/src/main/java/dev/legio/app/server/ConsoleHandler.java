package dev.legio.app.server;

import dev.legio.app.conversation.Conversations;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ResourceHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.resource.Resource;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.eclipse.jetty.util.resource.Resources;

/**
 * The web console: static pages and ES modules shipped inside {@code legio.jar} (classpath
 * resources under {@code dev/legio/app/console/}), which talk to the server through the public API
 * only.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@code GET /} is the operator's console ({@code index.html}); {@code GET /viewer/{id}} the
 *       page of the channel {@code viewer:{id}} ({@code viewer.html}) for an id the API takes in a
 *       channel key (1-64 letters, digits, '-' or '_'); {@code /console/*} the assets (served by
 *       Jetty's {@link ResourceHandler}, no directory listings). Anything else below these paths is
 *       404. {@code HEAD} of a page answers its headers, the same as {@code GET}'s.
 *   <li>Another method on a page or on an asset that {@code GET} serves ({@code POST
 *       /console/app.js}) is 405 with {@code Allow: GET, HEAD}, never 404: the file is there, the
 *       method is what to change. ({@code OPTIONS} of an asset is Jetty's 200 with its {@code
 *       Allow}.)
 *   <li>No page needs a token to load: the pages hold no data, every datum comes from {@code
 *       /api/v1} with the token the person types in.
 *   <li>Every answer carries a Content-Security-Policy that lets the page load scripts, styles and
 *       images from this server only and connect to this server only (no inline script, no frames,
 *       no forms posted elsewhere), {@code X-Content-Type-Options: nosniff} and {@code
 *       Referrer-Policy: no-referrer}: injected markup could run nothing and reach nowhere.
 * </ul>
 */
final class ConsoleHandler extends Handler.Wrapper {
  /** Where the console's files are on the classpath. */
  static final String RESOURCES = "dev/legio/app/console/";

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private static final String ASSETS = "/console/";

  private final ResourceHandler assets;
  private final byte[] index;
  private final byte[] viewer;

  ConsoleHandler() {
    this.assets = new ResourceHandler();
    assets.setBaseResource(ResourceFactory.of(assets).newClassLoaderResource(RESOURCES, false));
    assets.setDirAllowed(false);
    assets.setWelcomeFiles(List.of());
    assets.setCacheControl("no-cache");
    ContextHandler context = new ContextHandler(assets, "/console");
    context.setAllowNullPathInContext(false);
    setHandler(context);
    this.index = page("index.html");
    this.viewer = page("viewer.html");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    response.getHeaders().put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("Referrer-Policy", "no-referrer");
    String path = request.getHttpURI().getDecodedPath();
    byte[] page = null;
    if (path.equals("/")) {
      page = index;
    } else if (path.startsWith("/viewer/")
        && Conversations.channelKeyProblem("viewer:" + path.substring(8)).isEmpty()) {
      page = viewer;
    }
    boolean read = request.getMethod().equals("GET") || request.getMethod().equals("HEAD");
    if (!read && (page != null || (!request.getMethod().equals("OPTIONS") && isAsset(path)))) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      Response.writeError(request, response, callback, 405);
      return true;
    }
    if (page != null) {
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      // For HEAD, Jetty sends the headers of this answer (its Content-Length too) without the page.
      response.write(true, ByteBuffer.wrap(page), callback);
      return true;
    }
    if (path.startsWith(ASSETS) && super.handle(request, response, callback)) {
      return true;
    }
    Response.writeError(request, response, callback, 404);
    return true;
  }

  /** Whether {@code path} names a file that {@code GET} serves below {@code /console/}. */
  private boolean isAsset(String path) {
    if (!path.startsWith(ASSETS) || path.length() == ASSETS.length()) {
      return false;
    }
    Resource file = assets.getBaseResource().resolve(path.substring(ASSETS.length()));
    return Resources.isReadableFile(file);
  }

  private static byte[] page(String name) {
    try (InputStream in =
        ConsoleHandler.class.getClassLoader().getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("the console's " + name + " is missing from legio.jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
