package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.conversation.Conversations;
import dev.legio.errors.FailureText;
import dev.legio.log.Names;
import dev.legio.session.Mentions;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a turn's request to the node that holds its session's conversation ({@link
 * SessionAffinity}), and relays that node's answer to the caller.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only the requests that run one session's turn are sent on: {@code POST /messages} to one
 *       agent (or to none: the legatus), {@code POST /channels/{channel}/messages}, {@code POST
 *       /tasks}. A message to several agents runs where it arrived.
 *   <li>The request goes as it came: the same path, bearer token, JSON body and {@code Accept} (the
 *       events of a {@code POST /messages} stream through as they come; the other two answer JSON
 *       only, their {@code Accept} checked on arrival: {@link JsonOnlyRoutes}), plus {@link
 *       SessionAffinity#FORWARDED_HEADER}.
 *   <li>Nothing is logged or run on this node for a request sent on. When the other node cannot be
 *       reached (connection refused or not made within {@link #CONNECT_TIMEOUT}) or answers 503 (it
 *       is draining), the request runs here.
 *   <li>When the connection was made but the other node gave no answer (it died mid-turn, say), it
 *       may have logged and run the request: it is not run again here. The caller gets 502 saying
 *       so, and to look at the history before sending it again.
 *   <li>The other node's whole answer must arrive within {@link #answerWithin} (a queued turn's
 *       wait, the longest turn, and a minute): a node that is stopped or stalled (SIGSTOP, a frozen
 *       VM) holds no caller for ever. Past it, a caller still waiting for the answer gets 504
 *       saying the turn may still run there; a stream already under way is ended.
 * </ul>
 */
final class PeerRelay {
  private static final Logger log = LoggerFactory.getLogger(PeerRelay.class);

  private static final String TASKS_PATH = "/api/v1/tasks";

  /** How long a connection to another node may take before the turn runs here instead. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  private final SessionAffinity affinity;
  private final String node;
  private final Duration answerWithin;
  private final HttpClient http;

  /**
   * @param answerWithin how long the other node may take to answer in full
   */
  PeerRelay(SessionAffinity affinity, String node, Duration answerWithin) {
    this.affinity = affinity;
    this.node = node;
    this.answerWithin = answerWithin;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  /**
   * How long a relayed turn's answer may take in full: the longest a request waits for its queue
   * place and its lease ({@code [sessions] lock_wait_seconds}), the longest turn (the Claude CLI's
   * {@code turn_timeout_seconds}: only its sessions live on one node's disk), and a minute for the
   * rest (a condensing, the answer's way back).
   */
  static Duration answerWithin(Duration lockWait, Duration longestTurn) {
    return lockWait.plus(longestTurn).plusMinutes(1);
  }

  /** Where an exchange would go instead of running here. */
  @FunctionalInterface
  interface PeerOf {
    Optional<URI> peer(ApiExchange exchange) throws IOException;
  }

  /** {@code endpoint}, sending its request to {@code peerOf}'s node when there is one. */
  Endpoint preferring(Endpoint endpoint, PeerOf peerOf) {
    if (affinity == SessionAffinity.NONE) {
      return endpoint;
    }
    return exchange -> {
      if (exchange.header(SessionAffinity.FORWARDED_HEADER) == null) {
        Optional<URI> peer = peerOf.peer(exchange);
        if (peer.isPresent()) {
          // The other node's answer may take a whole turn: wait for it on a virtual thread.
          exchange.onVirtualThread(
              () -> {
                if (!sent(exchange, peer.get())) {
                  endpoint.handle(exchange);
                }
              });
          return;
        }
      }
      endpoint.handle(exchange);
    };
  }

  /** The node for {@code POST /messages}: the one agent it addresses (none: the legatus). */
  PeerOf messages(java.util.function.Supplier<java.util.Set<String>> knownAgents) {
    return exchange -> {
      JsonNode text = exchange.jsonBody().get("text");
      if (text == null || !text.isTextual()) {
        return Optional.empty(); // the endpoint says what is wrong
      }
      Mentions.Routing routing = Mentions.parse(text.asText(), knownAgents.get());
      List<String> targets = routing.targets();
      if (!routing.unknown().isEmpty() || targets.size() > 1) {
        return Optional.empty();
      }
      return affinity.peerFor(targets.isEmpty() ? Names.LEGATUS : targets.get(0));
    };
  }

  /** The node for {@code POST /channels/{channel}/messages}: the channel's session's. */
  PeerOf channel() {
    return exchange -> {
      String channel = exchange.pathParam("channel");
      if (channel == null || Conversations.channelKeyProblem(channel).isPresent()) {
        return Optional.empty(); // refused here (400)
      }
      if (!exchange.caller().mayPostTo(channel.substring(0, channel.indexOf(':')))) {
        return Optional.empty(); // refused here (403): no other node is asked
      }
      return affinity.peerFor(channel);
    };
  }

  /** The node for {@code POST /tasks}: the (session key, agent) session's. */
  PeerOf task() {
    return exchange -> {
      JsonNode body = exchange.jsonBody();
      JsonNode key = body.get("session_key");
      JsonNode agent = body.get("agent");
      if (key == null || !key.isTextual() || agent == null || !agent.isTextual()) {
        return Optional.empty();
      }
      if (!exchange.caller().reachesTaskKey(key.asText())) {
        return Optional.empty(); // refused here (403): no other node is asked, nor the store
      }
      return affinity.peerForTask(key.asText(), agent.asText());
    };
  }

  private boolean sent(ApiExchange exchange, URI peer) throws IOException {
    URI target = peer.resolve(exchange.pathAndQuery());
    long deadline = System.nanoTime() + answerWithin.toNanos();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target)
            .timeout(answerWithin)
            .header("Content-Type", "application/json")
            .header(SessionAffinity.FORWARDED_HEADER, node)
            .POST(
                HttpRequest.BodyPublishers.ofByteArray(
                    Json.MAPPER.writeValueAsBytes(exchange.jsonBody())));
    String authorization = exchange.header("Authorization");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    String accept = exchange.header("Accept");
    if (accept != null) {
      request.header("Accept", accept);
    }
    String idempotencyKey = exchange.header(IdempotencyKeys.HEADER);
    if (idempotencyKey != null) {
      request.header(IdempotencyKeys.HEADER, idempotencyKey);
    }
    HttpResponse<InputStream> answer;
    try {
      answer = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpTimeoutException e) {
      if (!(e instanceof HttpConnectTimeoutException)) {
        log.warn("the node at {} gave no answer within {}", peer, answerWithin);
        throw new ApiException(
            504,
            "the Legio node that runs this session's turns ("
                + peer
                + ") gave no answer within "
                + answerWithin.toSeconds()
                + " s ([sessions] lock_wait_seconds, the longest turn, and a minute); it may be"
                + " stopped or stalled, and may still run the "
                + (exchange.pathAndQuery().startsWith(TASKS_PATH)
                    ? "task. Look at GET /api/v1/tasks/sessions (the session's turns)"
                    : "turn. Look at GET /api/v1/history")
                + " before sending it again.");
      }
      log.info(
          "the node at {} could not be reached ({}); running the turn here", peer, e.toString());
      return false;
    } catch (IOException e) {
      if (!neverReached(e)) {
        log.warn("the node at {} took a request and gave no answer ({})", peer, e.toString());
        throw new ApiException(
            502,
            "the Legio node that runs this session's turns ("
                + peer
                + ") took the request and stopped before it answered ("
                + FailureText.of(e)
                + "); it may have "
                + (exchange.pathAndQuery().startsWith(TASKS_PATH)
                    ? "run the task. Look at GET /api/v1/tasks/sessions (the session's turns)"
                    : "logged and run it. Look at GET /api/v1/history")
                + " before sending it again.");
      }
      log.info(
          "the node at {} that holds this session could not be reached ({}); running the turn"
              + " here",
          peer,
          e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(503, "Legio is shutting down; send the message again when it is up");
    }
    if (answer.statusCode() == 503) {
      answer.body().close();
      log.info("the node at {} that holds this session is draining; running the turn here", peer);
      return false;
    }
    relayUntil(exchange, answer, peer, deadline);
    return true;
  }

  /**
   * Relays {@code answer}, ending it when it has not come in full by {@code deadline} (closing its
   * body wakes the read that waits for the stalled node).
   */
  private void relayUntil(
      ApiExchange exchange, HttpResponse<InputStream> answer, URI peer, long deadline)
      throws IOException {
    java.util.concurrent.atomic.AtomicBoolean late =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread watch =
        Thread.ofVirtual()
            .name("legio-relay-deadline")
            .start(
                () -> {
                  try {
                    java.util.concurrent.TimeUnit.NANOSECONDS.sleep(deadline - System.nanoTime());
                    late.set(true);
                    answer.body().close();
                  } catch (InterruptedException | IOException e) {
                    // relayed in time, or the body is closed already
                  }
                });
    try {
      exchange.relay(answer);
    } catch (IOException e) {
      if (late.get()) {
        log.warn(
            "the node at {} had not sent its whole answer within {}: ended the relayed answer",
            peer,
            answerWithin);
      }
      throw e;
    } finally {
      watch.interrupt();
    }
  }

  /** True when {@code e} says no connection was made: the other node never saw the request. */
  static boolean neverReached(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof HttpConnectTimeoutException
          || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException) {
        return true;
      }
    }
    return false;
  }
}
