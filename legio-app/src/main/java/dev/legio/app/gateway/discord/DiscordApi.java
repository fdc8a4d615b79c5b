package dev.legio.app.gateway.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.http.HttpFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The calls to Discord's HTTP API the gateway and {@code legio gateways discord register} make,
 * over the JDK's HTTP client with Jackson (Discord has no official Java library; the community ones
 * speak its WebSocket gateway, which Legio does not use).
 *
 * <p>Rules: every message sent carries {@code allowed_mentions} ({@link AllowedMentions}): {@code
 * {"parse": []}}, so no text can ping {@code @everyone}, a role or a user, except a message posted
 * in a channel for which the caller names the one user it pings (the asker, on the line before an
 * answer: {@link ChannelAnswer#intro}); every failure becomes an {@link HttpFailure} whose kind
 * says whether to retry, a 429 with the {@code retry_after} of its JSON body (seconds, fractional)
 * or else of its {@code Retry-After} header, and a 4xx that is not Discord's JSON error (with its
 * {@code code}: a proxy's page, a wrong {@code api_url}) a server failure, retried, never a refusal
 * that drops what is owed; messages never hold the bot token or an interaction's token.
 */
final class DiscordApi {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final String USER_AGENT = "DiscordBot (legio, 0.1.0)";

  private final String apiUrl;
  private final String applicationId;
  private final String botToken;
  private final HttpClient http;

  DiscordApi(String apiUrl, String applicationId, String botToken) {
    this.apiUrl = apiUrl;
    this.applicationId = applicationId;
    this.botToken = botToken;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** The application the bot token belongs to: its id (GET /applications/@me). */
  String applicationOfToken() {
    return send("GET /applications/@me", botRequest("/applications/@me").GET()).path("id").asText();
  }

  /** Creates or updates the global command {@code command} (POST /applications/{id}/commands). */
  JsonNode registerCommand(ObjectNode command) {
    return send(
        "POST /applications/{id}/commands",
        botRequest("/applications/" + applicationId + "/commands")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(command.toString())));
  }

  /** Replaces the deferred response of the interaction {@code token} with {@code content}. */
  void editOriginal(String token, String content) {
    send(
        "PATCH /webhooks/{id}/{token}/messages/@original",
        request("/webhooks/" + applicationId + "/" + segment(token) + "/messages/@original")
            .header("Content-Type", "application/json")
            .method(
                "PATCH",
                HttpRequest.BodyPublishers.ofString(
                    message(content, AllowedMentions.NOBODY).toString())));
  }

  /** Sends {@code content} as a follow-up message of the interaction {@code token}. */
  void followUp(String token, String content) {
    send(
        "POST /webhooks/{id}/{token}",
        request("/webhooks/" + applicationId + "/" + segment(token))
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    message(content, AllowedMentions.NOBODY).toString())));
  }

  /**
   * Posts {@code content} in channel {@code channelId} as the bot (POST /channels/{id}/messages):
   * how an answer reaches its channel when its interaction's token is gone.
   *
   * @param pings whom it may ping: {@link AllowedMentions#NOBODY} unless Legio wrote the text
   * @throws HttpFailure of kind {@code REQUEST} (not sent again) when there is no bot token
   */
  void createMessage(String channelId, String content, AllowedMentions pings) {
    if (botToken == null) {
      throw new HttpFailure(
          HttpFailure.Kind.REQUEST, 0, null, "no bot token to post in channels with", null);
    }
    send(
        "POST /channels/{id}/messages",
        botRequest("/channels/" + segment(channelId) + "/messages")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(message(content, pings).toString())));
  }

  /** {@code value} as one segment of a URL's path (percent-encoded; a space as {@code %20}). */
  static String segment(String value) {
    return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)
        .replace("+", "%20");
  }

  /** The body of a message of {@code content} that may ping whom {@code pings} says. */
  static ObjectNode message(String content, AllowedMentions pings) {
    ObjectNode body = JSON.createObjectNode().put("content", content);
    pings.writeTo(body);
    return body;
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(apiUrl + path))
        .timeout(Duration.ofSeconds(30))
        .header("User-Agent", USER_AGENT);
  }

  private HttpRequest.Builder botRequest(String path) {
    return request(path).header("Authorization", "Bot " + botToken);
  }

  private JsonNode send(String what, HttpRequest.Builder request) {
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw HttpFailure.fromProblem(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw HttpFailure.of(HttpFailure.Kind.CONNECT, "interrupted");
    }
    int status = response.statusCode();
    JsonNode body = parse(response.body());
    if (status / 100 == 2) {
      return body;
    }
    java.time.Duration retryAfter =
        body.has("retry_after")
            ? HttpFailure.parseRetryAfter(body.path("retry_after").asText())
            : HttpFailure.parseRetryAfter(
                response.headers().firstValue("Retry-After").orElse(null));
    if (status / 100 == 4 && status != 429 && !body.has("code")) {
      // Not Discord refusing (its errors carry a code): a proxy's page, a wrong api_url. The way
      // there failed, as a 5xx: what is owed is kept, never dropped as refused.
      throw HttpFailure.notTheApi(
          what,
          status,
          retryAfter,
          "Discord's API does (a JSON object with \"code\")",
          "[gateways.discord] api_url");
    }
    String message = body.path("message").asText("");
    throw new HttpFailure(
        HttpFailure.kindOf(status),
        status,
        retryAfter,
        what + " answered HTTP " + status + (message.isEmpty() ? "" : ": " + message),
        null);
  }

  private static JsonNode parse(String text) {
    try {
      JsonNode node = text == null || text.isBlank() ? null : JSON.readTree(text);
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
