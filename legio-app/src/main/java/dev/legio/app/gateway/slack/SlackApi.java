package dev.legio.app.gateway.slack;

import com.slack.api.Slack;
import com.slack.api.SlackConfig;
import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.MethodsConfig;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.SlackApiTextResponse;
import com.slack.api.methods.response.auth.AuthTestResponse;
import com.slack.api.methods.response.chat.ChatPostMessageResponse;
import dev.legio.backend.http.HttpFailure;
import java.io.IOException;
import java.util.Set;

/**
 * The two Web API methods the gateway calls, through Slack's official Java SDK ({@link
 * MethodsClient}, pointed at {@code [gateways.slack] api_url}): {@code auth.test} (is the token
 * good, and who is the bot) and {@code chat.postMessage}.
 *
 * <p>Rule: every failure becomes an {@link HttpFailure} of the kind that says whether to retry: a
 * 429 with its {@code Retry-After}, a 5xx or an I/O error (retried), an {@code ok: false} naming a
 * bad token (refused) or anything else (not retried); an answer that is not Slack's (another 4xx, a
 * body that is not its JSON: a proxy's page, a wrong {@code api_url}) is retried as a 5xx, never
 * taken as a refusal that drops what is owed. Messages never hold the token.
 */
final class SlackApi implements AutoCloseable {
  /** Slack's errors that mean the token is wrong, revoked or lacks a scope. */
  private static final Set<String> TOKEN_ERRORS =
      Set.of(
          "invalid_auth",
          "not_authed",
          "account_inactive",
          "token_revoked",
          "token_expired",
          "missing_scope",
          "not_allowed_token_type");

  private final Slack slack;
  private final MethodsClient methods;
  private final String botToken;

  SlackApi(String apiUrl, String botToken) {
    SlackConfig config = new SlackConfig();
    config.setMethodsEndpointUrlPrefix(apiUrl + "/");
    config.setPrettyResponseLoggingEnabled(false);
    config.setFailOnUnknownProperties(false);
    // Without this the SDK calls auth.test before every method to learn the team's id for its
    // rate-limit statistics, and logs each failure with a stack trace at ERROR: one outage of Slack
    // filled the log. Legio keeps no such statistics.
    config.setMethodsConfig(MethodsConfig.builder().statsEnabled(false).build());
    this.slack = Slack.getInstance(config);
    this.methods = slack.methods(botToken);
    this.botToken = botToken;
  }

  /** The bot's own user id, when the token is good. */
  String authTest() {
    AuthTestResponse r = call("auth.test", () -> methods.authTest(req -> req));
    return r.getUserId();
  }

  /**
   * Posts {@code text} (mrkdwn, already escaped) in {@code channel}, in the thread {@code ts}.
   *
   * <p>The form is written here, with the parameters and values the SDK's {@code chatPostMessage}
   * sends, each once: the SDK's own form (1.47.0, {@code RequestFormBuilder}) carries {@code
   * thread_ts} twice.
   */
  void postMessage(String channel, String threadTs, String text) {
    call(
        "chat.postMessage",
        () ->
            methods.postFormWithTokenAndParseResponse(
                form -> {
                  form.add("channel", channel);
                  if (threadTs != null) {
                    form.add("thread_ts", threadTs);
                  }
                  return form.add("text", text)
                      .add("link_names", "0")
                      .add("mrkdwn", "1")
                      .add("unfurl_links", "0")
                      .add("unfurl_media", "0")
                      .add("reply_broadcast", "0");
                },
                "chat.postMessage",
                botToken,
                ChatPostMessageResponse.class));
  }

  private interface Call<T extends SlackApiTextResponse> {
    T run() throws IOException, SlackApiException;
  }

  private static <T extends SlackApiTextResponse> T call(String method, Call<T> call) {
    T response;
    try {
      response = call.run();
    } catch (SlackApiException e) {
      int status = e.getResponse().code();
      String retryAfter = e.getResponse().header("Retry-After");
      if (status / 100 == 4 && status != 429) {
        return failWith(notSlack(method, status));
      }
      return failWith(
          new HttpFailure(
              HttpFailure.kindOf(status),
              status,
              HttpFailure.parseRetryAfter(retryAfter),
              method + " answered HTTP " + status,
              null));
    } catch (com.google.gson.JsonParseException e) {
      return failWith(notSlack(method, 200));
    } catch (IOException e) {
      throw HttpFailure.fromProblem(e);
    }
    if (!response.isOk() && response.getError() == null) {
      return failWith(notSlack(method, 200));
    }
    if (!response.isOk()) {
      String error = String.valueOf(response.getError());
      HttpFailure.Kind kind =
          TOKEN_ERRORS.contains(error)
              ? HttpFailure.Kind.AUTH
              : error.equals("ratelimited")
                  ? HttpFailure.Kind.RATE_LIMITED
                  : HttpFailure.Kind.REQUEST;
      throw new HttpFailure(kind, 200, null, method + " answered ok: false, error " + error, null);
    }
    return response;
  }

  /**
   * An answer that is not Slack's (Slack answers 200 with {@code ok}, 429 or 5xx; this is a proxy's
   * page, a wrong {@code api_url}): the way there failed, as a 5xx, so what is owed is kept.
   */
  private static HttpFailure notSlack(String method, int status) {
    return HttpFailure.notTheApi(
        method,
        status,
        null,
        "Slack's Web API does (JSON with \"ok\")",
        "[gateways.slack] api_url");
  }

  private static <T> T failWith(HttpFailure failure) {
    throw failure;
  }

  @Override
  public void close() {
    try {
      slack.close();
    } catch (Exception e) {
      // nothing more to release
    }
  }
}
