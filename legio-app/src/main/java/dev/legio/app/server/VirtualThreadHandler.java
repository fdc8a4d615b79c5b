package dev.legio.app.server;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a handler mounted beside the API (MCP, a gateway's webhook) on a virtual thread of its own,
 * as every handler ran before the API's threads became platform threads ({@link HandOff}): those
 * handlers block for as long as their work takes (an MCP tool that dispatches a turn, an event
 * stream, a Telegram update answered after its turn), and must not hold an API thread meanwhile.
 *
 * <p>The request is always taken: a handler that declines it is answered 404.
 */
final class VirtualThreadHandler extends Handler.Wrapper {
  private static final Logger log = LoggerFactory.getLogger(VirtualThreadHandler.class);

  private final EngineThreadPriority priority;

  VirtualThreadHandler(Handler handler, EngineThreadPriority priority) {
    super(handler);
    this.priority = priority;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Thread.ofVirtual()
        .name("legio-mounted")
        .start(
            () -> {
              priority.lowerCurrentCarrier();
              try {
                if (!super.handle(request, response, callback)) {
                  Response.writeError(request, response, callback, 404);
                }
              } catch (Throwable e) {
                log.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
                Response.writeError(request, response, callback, e);
              }
            });
    return true;
  }

  @Override
  public InvocationType getInvocationType() {
    return InvocationType.NON_BLOCKING;
  }
}
