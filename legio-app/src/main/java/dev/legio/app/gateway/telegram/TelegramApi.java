package dev.legio.app.gateway.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.secrets.SecretRedactor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The few Telegram Bot API methods Legio calls ({@code getMe}, {@code getUpdates}, {@code
 * sendMessage}, {@code sendChatAction}, {@code setWebhook}, {@code deleteWebhook}), as the Bot API
 * documents them (https://core.telegram.org/bots/api): a JSON POST to {@code
 * {api_url}/bot{token}/{method}}, answered with {@code {"ok": true, "result": ...}} or {@code
 * {"ok": false, "error_code": N, "description": "...", "parameters": {"retry_after": S}}}.
 *
 * <p>Written on the JDK's HTTP client and Jackson: the well-kept Java Bot API libraries do not let
 * the base URL be set cleanly (which the loopback fake in the tests and a local Bot API server
 * need), and these six calls are small.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>429: waits as long as {@code parameters.retry_after} says (at most {@link
 *       #MAX_RETRY_AFTER}), then tries again, up to {@link #MAX_ATTEMPTS} attempts.
 *   <li>5xx: tried again after 1 s, 2 s, 4 s (bounded: {@link #MAX_ATTEMPTS} attempts in all), then
 *       {@link TelegramApiException.Kind#UNREACHABLE}. No answer at all (refused connection, time
 *       out) is UNREACHABLE at once: the caller's loop decides when to try again.
 *   <li>401, or 404 (what Telegram answers for a token of the wrong shape): {@link
 *       TelegramApiException.Kind#UNAUTHORIZED}, naming the environment variable to check.
 *   <li>Only the Bot API itself refuses: an answer that is not its JSON (a proxy's page, a wrong
 *       {@code api_url}), whatever its status, is tried again as a 5xx is, then UNREACHABLE, so
 *       that a reply owed is kept for later, never dropped as refused.
 *   <li>The token is in every URL; no message this class makes contains the URL, the token, or the
 *       text of an I/O exception unmasked: all pass through {@link #mask}.
 * </ul>
 */
final class TelegramApi {
  static final int MAX_ATTEMPTS = 4;
  static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Waits between attempts; tests record the waits. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;

    Sleeper REAL = Thread::sleep;
  }

  private final HttpClient http;
  private final String apiUrl;
  private final String token;
  private final String tokenEnv;
  private final Sleeper sleeper;

  TelegramApi(HttpClient http, String apiUrl, String token, String tokenEnv, Sleeper sleeper) {
    this.http = http;
    this.apiUrl = apiUrl;
    this.token = token;
    this.tokenEnv = tokenEnv;
    this.sleeper = sleeper;
    SecretRedactor.register(token);
  }

  /** One update as far as Legio reads it. */
  record Update(long updateId, JsonNode body) {}

  /** {@code getMe}: the bot's own user; checks the token. */
  JsonNode getMe() {
    return call("getMe", JSON.createObjectNode(), Duration.ofSeconds(30));
  }

  /** {@code getUpdates} from {@code offset}, waiting up to {@code timeoutSeconds} for one. */
  List<Update> getUpdates(long offset, int timeoutSeconds) {
    ObjectNode params = JSON.createObjectNode();
    params.put("offset", offset);
    params.put("timeout", timeoutSeconds);
    params.putArray("allowed_updates").add("message");
    JsonNode result = call("getUpdates", params, Duration.ofSeconds(timeoutSeconds + 15L));
    List<Update> out = new ArrayList<>();
    for (JsonNode u : result) {
      out.add(new Update(u.path("update_id").asLong(), u));
    }
    return out;
  }

  /** {@code sendMessage} in HTML parse mode. */
  void sendHtml(String chatId, String html) {
    ObjectNode params = JSON.createObjectNode();
    params.put("chat_id", chatId);
    params.put("text", html);
    params.put("parse_mode", "HTML");
    params.putObject("link_preview_options").put("is_disabled", true);
    call("sendMessage", params, Duration.ofSeconds(30));
  }

  /** {@code sendChatAction typing}. */
  void typing(String chatId) {
    ObjectNode params = JSON.createObjectNode();
    params.put("chat_id", chatId);
    params.put("action", "typing");
    call("sendChatAction", params, Duration.ofSeconds(10));
  }

  /** {@code setWebhook} to {@code url} with {@code secret}, one connection at a time. */
  void setWebhook(String url, String secret) {
    ObjectNode params = JSON.createObjectNode();
    params.put("url", url);
    if (secret != null) {
      params.put("secret_token", secret);
    }
    params.put("max_connections", 1);
    params.putArray("allowed_updates").add("message");
    call("setWebhook", params, Duration.ofSeconds(30));
  }

  /** {@code deleteWebhook}: needed before getUpdates works on a bot that had one. */
  void deleteWebhook() {
    call("deleteWebhook", JSON.createObjectNode(), Duration.ofSeconds(30));
  }

  /** Calls {@code method} with the retries of the class comment; returns its {@code result}. */
  JsonNode call(String method, ObjectNode params, Duration timeout) {
    Duration backoff = Duration.ofSeconds(1);
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> response;
      URI uri;
      try {
        uri = URI.create(apiUrl + "/bot" + token + "/" + method);
      } catch (IllegalArgumentException e) {
        // its message would quote the URL, and so the token
        throw new TelegramApiException(
            TelegramApiException.Kind.UNAUTHORIZED,
            0,
            "the token in "
                + tokenEnv
                + " holds characters a URL cannot (spaces, quotes?): copy it again from"
                + " BotFather (/mybots, API Token)");
      }
      try {
        HttpRequest request =
            HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(params), StandardCharsets.UTF_8))
                .build();
        response = send(request, method.equals("getUpdates"));
      } catch (IOException e) {
        throw new TelegramApiException(
            TelegramApiException.Kind.UNREACHABLE,
            0,
            "Telegram is not reachable at "
                + apiUrl
                + " ("
                + method
                + ": "
                + mask(
                    e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()))
                + ")");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TelegramApiException(
            TelegramApiException.Kind.UNREACHABLE, 0, method + " interrupted");
      }
      int status = response.statusCode();
      JsonNode body = parse(response.body());
      if (!body.path("ok").isBoolean()) {
        // Not the Bot API answering (a proxy's page, a wrong api_url): nothing was refused, the
        // way there failed. Tried again, then waiting: a reply owed is kept, never dropped.
        if (attempt >= MAX_ATTEMPTS) {
          throw new TelegramApiException(
              TelegramApiException.Kind.UNREACHABLE,
              status,
              "the server at "
                  + mask(apiUrl)
                  + " answered "
                  + method
                  + " with HTTP "
                  + status
                  + ", but not as the Telegram Bot API does (a JSON object with \"ok\"): check"
                  + " [gateways.telegram] api_url, and any proxy on the way");
        }
        pause(backoff, method);
        backoff = backoff.multipliedBy(2);
        continue;
      }
      if (status == 200 && body.path("ok").asBoolean(false)) {
        return body.path("result");
      }
      String description = mask(body.path("description").asText("HTTP " + status));
      if (status == 429) {
        long seconds = Math.max(1, body.path("parameters").path("retry_after").asLong(1));
        Duration wait = Duration.ofSeconds(seconds);
        if (attempt >= MAX_ATTEMPTS || wait.compareTo(MAX_RETRY_AFTER) > 0) {
          throw new TelegramApiException(
              TelegramApiException.Kind.RATE_LIMITED,
              429,
              "Telegram rate-limits " + method + ": retry after " + seconds + " s");
        }
        pause(wait, method);
        continue;
      }
      if (status >= 500) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new TelegramApiException(
              TelegramApiException.Kind.UNREACHABLE,
              status,
              "Telegram answers " + method + " with " + status + " (" + description + ")");
        }
        pause(backoff, method);
        backoff = backoff.multipliedBy(2);
        continue;
      }
      if (status == 401 || status == 404) {
        throw new TelegramApiException(
            TelegramApiException.Kind.UNAUTHORIZED,
            status,
            "Telegram refuses the bot token in "
                + tokenEnv
                + " ("
                + status
                + " "
                + description
                + "): copy the token BotFather gave you (/mybots, API Token) into "
                + tokenEnv
                + " and restart legio serve");
      }
      throw new TelegramApiException(
          TelegramApiException.Kind.REFUSED,
          status,
          "Telegram refuses " + method + " (" + status + " " + description + ")");
    }
  }

  /** The long poll in flight, which {@link #cancelPoll} ends at once. */
  private volatile CompletableFuture<HttpResponse<String>> poll;

  private HttpResponse<String> send(HttpRequest request, boolean longPoll)
      throws IOException, InterruptedException {
    HttpResponse.BodyHandler<String> body =
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8);
    if (!longPoll) {
      return http.send(request, body);
    }
    CompletableFuture<HttpResponse<String>> future = http.sendAsync(request, body);
    poll = future;
    try {
      return future.get();
    } catch (CancellationException e) {
      throw new IOException("the long poll was cancelled: Legio is stopping");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } finally {
      poll = null;
    }
  }

  /** Ends the long poll in flight, if any (when stopping): nothing else is cut short. */
  void cancelPoll() {
    CompletableFuture<HttpResponse<String>> future = poll;
    if (future != null) {
      future.cancel(true);
    }
  }

  private void pause(Duration wait, String method) {
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TelegramApiException(
          TelegramApiException.Kind.UNREACHABLE, 0, method + " interrupted");
    }
  }

  private static JsonNode parse(String body) {
    try {
      JsonNode node = JSON.readTree(body == null ? "" : body);
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  /** {@code text} with the token (and anything shaped like a secret) masked. */
  String mask(String text) {
    String out = text == null ? "" : text;
    if (token != null && !token.isEmpty()) {
      out = out.replace(token, SecretRedactor.MASK);
    }
    return SecretRedactor.redact(out);
  }
}
