package dev.legio.app.gateway.webhook;

import dev.legio.app.http.ContentEncodingRefusal;
import dev.legio.app.http.StalledTransfer;
import dev.legio.app.http.UnreadBody;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A platform's webhook on Legio's server: POST only, the body read as raw bytes (the platform signs
 * the exact bytes) up to {@link #MAX_BODY_BYTES}, the answer JSON. Each platform's handler checks
 * the signature itself in {@link #answer}.
 *
 * <p>Rules: while Legio stops every request gets 503 ({@link #refuseNewRequests}); another method
 * gets 405, a compressed body 415 ({@link ContentEncodingRefusal}), a body over the limit 413, an
 * unexpected error 500 with no detail (the log has it); the body of a refused request is never
 * logged. An answer given before the whole body was read (503, 405, 415, 413) leaves its body
 * unread ({@link UnreadBody}); a body that stops arriving gets 408 ({@link StalledTransfer}).
 */
public abstract class WebhookHandler extends Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(WebhookHandler.class);

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** The largest body a platform sends (Slack's and Discord's events are far smaller). */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /** The answer to a webhook: its status and JSON body. */
  public record Answer(int status, String json) {
    public static Answer error(int status, String why) {
      return new Answer(status, "{\"error\":" + quote(why) + "}");
    }

    private static String quote(String text) {
      try {
        return JSON.writeValueAsString(text);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private volatile boolean refusing;

  /**
   * From now on every request gets 503 (Legio is stopping): nothing is taken in that could not be
   * answered, so the platform's retry, sent to Legio once it is back, is not lost.
   */
  public void refuseNewRequests() {
    refusing = true;
  }

  /** Answers one request, given its headers and raw body. */
  protected abstract Answer answer(HttpFields headers, byte[] body);

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Answer answer;
    try {
      if (refusing) {
        UnreadBody.dropOrClose(request, response);
        answer = Answer.error(503, "Legio is shutting down; try again when it is back");
      } else if (!"POST".equals(request.getMethod())) {
        UnreadBody.dropOrClose(request, response);
        response.getHeaders().put(HttpHeader.ALLOW, "POST");
        answer = Answer.error(405, "only POST is accepted here: this is a platform's webhook");
      } else if (encodedBody(request, response) instanceof String why) {
        answer = Answer.error(ContentEncodingRefusal.STATUS, why);
      } else {
        byte[] body = read(request);
        if (body == null) {
          UnreadBody.dropOrClose(request, response);
          answer = Answer.error(413, "the body is larger than " + MAX_BODY_BYTES + " bytes");
        } else {
          answer = answer(request.getHeaders(), body);
        }
      }
    } catch (Exception e) {
      if (StalledTransfer.isStall(e)) {
        answer = Answer.error(408, StalledTransfer.bodyStopped(e));
      } else {
        log.error("webhook {} failed", request.getHttpURI().getPath(), e);
        answer = Answer.error(500, "internal error; see Legio's log file");
      }
    }
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(answer.json().getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }

  /**
   * Why {@code request}'s body is refused unread for its {@code Content-Encoding} ({@link
   * ContentEncodingRefusal}), its answer's headers set; null when it is sent as it is.
   */
  public static String encodedBody(Request request, Response response) {
    String why =
        ContentEncodingRefusal.of(request.getHeaders().getValuesList(HttpHeader.CONTENT_ENCODING))
            .orElse(null);
    if (why != null) {
      UnreadBody.dropOrClose(request, response);
      response
          .getHeaders()
          .put(ContentEncodingRefusal.ACCEPT_ENCODING, ContentEncodingRefusal.IDENTITY);
    }
    return why;
  }

  /**
   * The request's body, or null when it is over {@link #MAX_BODY_BYTES} (by its length or as read:
   * a chunked body is never read past the limit).
   */
  public static byte[] read(Request request) throws IOException {
    if (request.getLength() > MAX_BODY_BYTES) {
      return null;
    }
    try (InputStream in =
        StalledTransfer.withDeadline(Content.Source.asInputStream(request), request)) {
      byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
      return body.length > MAX_BODY_BYTES ? null : body;
    }
  }
}
