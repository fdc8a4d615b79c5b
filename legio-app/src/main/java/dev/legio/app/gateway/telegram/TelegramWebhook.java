package dev.legio.app.gateway.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.app.gateway.webhook.WebhookHandler;
import dev.legio.app.http.ContentEncodingRefusal;
import dev.legio.app.http.StalledTransfer;
import dev.legio.app.http.UnreadBody;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /gateways/telegram/webhook}: the updates Telegram posts in webhook mode.
 *
 * <p>Rules: a request without the {@code X-Telegram-Bot-Api-Secret-Token} header Legio gave in
 * {@code setWebhook}, or with another value, is refused with 401 (compared in constant time) and
 * nothing is read further; a body over 1 MiB gets 413, one that is not an update 400, one that
 * stops arriving 408 ({@link StalledTransfer}). An answer given before the whole body was read
 * (405, 401, 415 for a compressed body, 413) leaves its body unread ({@link UnreadBody}). An update
 * is answered (200) after its turn is stored, so Telegram delivers it again if Legio stops midway;
 * one seen before (its id below the stored offset) gets 200 and is skipped. An update whose turn
 * Legio's shutdown cut gets 503 ({@link TurnCutByShutdown}). A failure while answering is 500, and
 * Telegram tries again.
 */
final class TelegramWebhook extends Handler.Abstract {
  static final String SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";
  private static final Logger log = LoggerFactory.getLogger(TelegramWebhook.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TelegramGateway gateway;
  private final byte[] secret;

  TelegramWebhook(TelegramGateway gateway, String secret) {
    this.gateway = gateway;
    this.secret = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!"POST".equals(request.getMethod())) {
      UnreadBody.dropOrClose(request, response);
      return answer(response, callback, 405, "use POST");
    }
    if (!gateway.takingUpdates()) {
      UnreadBody.dropOrClose(request, response);
      return answer(response, callback, 503, "Legio is shutting down; Telegram sends it again");
    }
    String given = request.getHeaders().get(SECRET_HEADER);
    if (secret == null
        || given == null
        || !MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8))) {
      UnreadBody.dropOrClose(request, response);
      return answer(response, callback, 401, "missing or wrong " + SECRET_HEADER);
    }
    if (WebhookHandler.encodedBody(request, response) instanceof String why) {
      return answer(response, callback, ContentEncodingRefusal.STATUS, why);
    }
    byte[] body;
    try {
      body = WebhookHandler.read(request);
    } catch (IOException e) {
      if (StalledTransfer.isStall(e)) {
        return answer(response, callback, 408, StalledTransfer.bodyStopped(e));
      }
      throw e;
    }
    if (body == null) {
      UnreadBody.dropOrClose(request, response);
      return answer(response, callback, 413, "an update is at most 1 MiB");
    }
    JsonNode update;
    try {
      update = JSON.readTree(body);
    } catch (Exception e) {
      return answer(response, callback, 400, "the body is not JSON");
    }
    if (update == null || !update.path("update_id").isIntegralNumber()) {
      return answer(response, callback, 400, "not a Telegram update: update_id missing");
    }
    try {
      gateway.process(new TelegramApi.Update(update.path("update_id").asLong(), update));
    } catch (TurnCutByShutdown e) {
      return answer(response, callback, 503, "Legio is shutting down; send the update again later");
    } catch (RuntimeException e) {
      log.error("telegram: webhook update {} failed", update.path("update_id").asLong(), e);
      return answer(response, callback, 500, "Legio could not process the update; retry");
    }
    return answer(response, callback, 200, null);
  }

  private static boolean answer(Response response, Callback callback, int status, String error) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    String body;
    try {
      body =
          error == null
              ? "{\"ok\":true}"
              : JSON.writeValueAsString(java.util.Map.of("ok", false, "error", error));
    } catch (Exception e) {
      body = "{}";
    }
    Content.Sink.write(response, true, body, callback);
    return true;
  }
}
