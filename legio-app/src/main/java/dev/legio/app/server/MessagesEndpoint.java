package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.conversation.Conversations;
import dev.legio.app.conversation.UnknownAgentsException;
import dev.legio.backend.BackendEvent;
import dev.legio.log.Message;
import dev.legio.log.Names;
import dev.legio.session.DispatchListener;
import dev.legio.session.InterruptionNote;
import dev.legio.session.Mentions;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import dev.legio.session.RequestKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v1/messages}: a message from caesar, routed, logged and answered as {@code legio
 * say} does.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An empty text, or a mention of an unknown agent, is refused with 400 (the latter listing
 *       the agents) before anything is logged.
 *   <li>JSON answer: the request's id and sequence, and one reply per agent in mention order. When
 *       every agent was busy past the wait: 409 (the request is logged). When Legio's shutdown cut
 *       every agent's turn: 503, saying to send the message again (the shutdown's notes are no
 *       answers; with the same {@code Idempotency-Key} the turns run again and the request is
 *       logged once). A status speaks for the whole request: when only some agents were busy or
 *       cut, it is 200 and those replies say so ({@code error: true}).
 *   <li>With {@code Accept: text/event-stream} (as {@link AcceptNegotiation} weighs it: not with
 *       {@code q=0}; {@code text/*} too; a header that takes neither type is 406): {@code status}
 *       events as agents report them, one {@code reply} event per agent as its answer is logged,
 *       then {@code done} with the whole JSON answer. A client that leaves does not stop the turn.
 *       A token revoked meanwhile does not cut the stream: it carries this request's replies only,
 *       as the JSON answer would ({@link StreamTokenWatch} says why only {@code /events} is
 *       watched). A refusal before the request is logged keeps its status ({@link
 *       StreamOpenedOnceLogged}).
 *   <li>An {@code Idempotency-Key} makes sending the message again safe ({@link IdempotencyKeys}).
 *   <li>The turn runs on the engine's side of the {@link HandOff}; the engine's own time is sent as
 *       {@code Server-Timing: engine;dur=MS}, so that the API's overhead can be measured.
 * </ul>
 */
final class MessagesEndpoint implements Endpoint {
  private final ServerParts parts;
  private final EventHub hub;

  MessagesEndpoint(ServerParts parts, EventHub hub) {
    this.parts = parts;
    this.hub = hub;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    boolean streams =
        exchange
            .answerType(ApiExchange.JSON, ApiExchange.EVENT_STREAM)
            .equals(ApiExchange.EVENT_STREAM);
    String text = Bodies.text(exchange.jsonBody(), "text");
    Set<String> known = parts.engine().knownAgents();
    Mentions.Routing routing = Mentions.parse(text, known);
    if (!routing.unknown().isEmpty()) {
      UnknownAgentsException unknown = new UnknownAgentsException(routing.unknown(), known);
      throw new ApiException(400, unknown.getMessage(), Map.of("agents", unknown.known()));
    }
    RequestKey key = IdempotencyKeys.of(exchange);
    if (streams) {
      exchange.onVirtualThread(() -> stream(exchange, text, key));
      return;
    }
    exchange.afterEngine(
        () ->
            Dispatch.run(() -> parts.conversations().fromCaesar(text, DispatchListener.NONE, key)),
        outcome -> answer(exchange, outcome, key));
  }

  private void answer(ApiExchange exchange, Outcome outcome, RequestKey key) throws IOException {
    Map<String, Object> answer = answer(outcome);
    boolean allCut =
        !outcome.replies().isEmpty()
            && outcome.replies().stream().allMatch(r -> InterruptionNote.isNote(outcome, r));
    if (allCut) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put(
          "error",
          CutByShutdownError.of(
              String.join(", ", outcome.replies().stream().map(Reply::agent).toList()), key));
      body.put("request", answer.get("request"));
      exchange.json(503, body);
      return;
    }
    boolean allBusy =
        !outcome.replies().isEmpty() && outcome.replies().stream().allMatch(Conversations::busy);
    if (allBusy) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("error", "every agent addressed was busy past the wait; send the message again");
      body.putAll(answer);
      exchange.json(409, body);
      return;
    }
    exchange.json(200, answer);
  }

  private Map<String, Object> answer(Outcome outcome) {
    if (outcome.refusal() != null) {
      throw ApiException.badRequest(outcome.refusal());
    }
    List<Map<String, Object>> replies = new ArrayList<>();
    for (Reply r : outcome.replies()) {
      replies.add(Replies.view(r, parts.messageLog()));
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("request", Views.request(outcome.request()));
    answer.put("replies", replies);
    return answer;
  }

  /** An agent's description, as its prompt's front matter gives it ("" when unknown). */
  private String description(String agent) {
    try {
      if (Names.LEGATUS.equals(agent)) {
        return parts.agents().legatus().description();
      }
      return parts.agents().centurio(agent).map(p -> p.description()).orElse("");
    } catch (RuntimeException e) {
      return "";
    }
  }

  /**
   * Streams the turn: status lines from the dispatch listener, each reply as the hub sees it logged
   * in answer to the request, and at the end whatever the outcome holds that was not sent yet.
   */
  private void stream(ApiExchange exchange, String text, RequestKey key) throws Exception {
    EventSubscription watch = hub.subscribe();
    StreamOpenedOnceLogged sse = new StreamOpenedOnceLogged(exchange);
    ReplyWatcher watcher = new ReplyWatcher(watch, sse, this::description);
    Thread watching = Thread.ofVirtual().name("legio-reply-watch").start(watcher);
    try {
      DispatchListener listener =
          new DispatchListener() {
            @Override
            public void onEvent(String agent, BackendEvent event) {
              if (event instanceof BackendEvent.Status s) {
                watcher.send(ServerEvent.of("status", Map.of("agent", agent, "text", s.text())));
              }
            }

            @Override
            public void requestLogged(Message request) {
              watcher.watchRepliesTo(request.id().toString());
              sse.open(); // its 200 now, before any turn runs
            }
          };
      Outcome outcome;
      try {
        outcome = Dispatch.run(() -> parts.conversations().fromCaesar(text, listener, key));
      } catch (ApiException e) {
        if (!sse.opened()) {
          throw e; // refused before it was logged: its status and a JSON error
        }
        watcher.send(ServerEvent.of("error", Map.of("error", e.getMessage())));
        return;
      }
      watcher.stop();
      watching.join();
      if (outcome.refusal() != null) {
        if (!sse.opened()) {
          throw ApiException.badRequest(outcome.refusal()); // as answered without a stream
        }
        watcher.send(ServerEvent.of("error", Map.of("error", outcome.refusal())));
        return;
      }
      for (Reply r : outcome.replies()) {
        if (!watcher.sentFor(r.agent())) {
          watcher.send(ServerEvent.of("reply", Replies.view(r, parts.messageLog())));
        }
      }
      watcher.send(ServerEvent.of("done", answer(outcome)));
    } finally {
      watcher.stop();
      hub.unsubscribe(watch);
      sse.close();
    }
  }

  /**
   * Watches the hub's messages for the replies to this request, sending each reply as it is logged.
   * The request is known by its id, which the engine gives ({@link DispatchListener#requestLogged})
   * before any of its turns runs, never by its text: another client may send the same text at the
   * same moment, and its replies are not this request's. Best effort: what it misses, the outcome
   * sends.
   */
  private static final class ReplyWatcher implements Runnable {
    private final EventSubscription watch;
    private final StreamOpenedOnceLogged sse;
    private final java.util.function.Function<String, String> descriptions;
    private final Set<String> sent = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;
    private volatile boolean clientGone;
    private volatile String requestId;

    ReplyWatcher(
        EventSubscription watch,
        StreamOpenedOnceLogged sse,
        java.util.function.Function<String, String> descriptions) {
      this.descriptions = descriptions;
      this.watch = watch;
      this.sse = sse;
    }

    /** The id of the request whose replies are this stream's; set once it is logged. */
    void watchRepliesTo(String id) {
      requestId = id;
    }

    @Override
    public void run() {
      try {
        while (!stopped) {
          ServerEvent event = watch.next(50);
          if (event == null) {
            if (watch.ended() != null) {
              return;
            }
            continue;
          }
          if (!event.isMessage()) {
            continue;
          }
          JsonNode m = Json.MAPPER.readTree(event.data());
          String request = requestId;
          if (request != null && request.equals(m.path("reply_to").asText(null))) {
            String agent = m.path("sender").asText();
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("agent", agent);
            reply.put("description", descriptions.apply(agent));
            reply.put("text", m.path("text").asText());
            reply.put("id", m.path("id").asText());
            reply.put("sequence", m.path("sequence").asLong());
            reply.put("error", false);
            synchronized (this) {
              if (!stopped && sent.add(agent)) {
                send(ServerEvent.of("reply", reply));
              }
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (IOException e) {
        clientGone = true;
      }
    }

    synchronized void stop() {
      stopped = true;
    }

    synchronized boolean sentFor(String agent) {
      return sent.contains(agent);
    }

    /** Sends an event; once the client has left, drops it (the turn goes on). */
    void send(ServerEvent event) {
      if (clientGone) {
        return;
      }
      try {
        sse.open().send(event);
      } catch (IOException e) {
        clientGone = true;
      }
    }
  }
}
