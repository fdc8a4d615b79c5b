package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.errors.Quoted;
import dev.legio.task.TaskBusyException;
import dev.legio.task.TaskFailedException;
import dev.legio.task.TaskInterruptedException;
import dev.legio.task.TaskLeaseLostException;
import dev.legio.task.TaskNotStoredException;
import dev.legio.task.TaskRefusedException;
import dev.legio.task.TaskResult;
import dev.legio.task.TaskSessionRecord;
import dev.legio.task.TaskSessionSummary;
import dev.legio.usage.UsageTotal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Task sessions over HTTP, for a token of role {@code task} or {@code operator}: {@code POST
 * /api/v1/tasks} runs one turn of the (session key, agent) session, {@code GET
 * /api/v1/tasks/sessions?session_key=K} lists the key's sessions with their totals. Both call the
 * task service the Java API calls ({@link dev.legio.task.TaskSessions}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@code session_key}, {@code agent} and {@code text} are required strings; {@code
 *       task_run_id} is optional. A bad key, an unknown agent (the answer lists the agents in
 *       {@code agents}) or an empty text is 400, and nothing runs.
 *   <li>A task token with key prefixes ({@link SessionKeyPrefixes}) reaches only the keys that
 *       start with one of them: any other key is 403, with the prefixes in {@code key_prefixes},
 *       before the key, the agent or the text is checked, and nothing runs. Listing a key's
 *       sessions is refused the same way rather than answered empty, so that a key out of reach is
 *       told from a key with no sessions yet.
 *   <li>A session busy past {@code lock_wait_seconds} is 409, and so is a turn whose session
 *       another node took over while this one ran it (this node paused past {@code
 *       lease_ttl_seconds}; nothing stored): when the answer had come, it is in {@code reply} (and
 *       {@code task_run_id}) beside the error, which says it is not in the session's history (its
 *       tokens are spent); else the message says to send the task again unless it was already. A
 *       back-end failure 502 (nothing stored: sending again is safe); a task that Legio's shutdown
 *       refused or interrupted is 503 (nothing stored either). A turn whose answer came but whose
 *       session Legio's database failed to store is 503 too, with the answer in {@code reply} (and
 *       {@code task_run_id}) beside the error: its tokens are spent, and sending the task again
 *       would pay for it twice. When another node had taken the session over by then (found by the
 *       check after the failed write), it is the 409 of a lost lease with the answer instead; a
 *       check that cannot tell leaves it 503 ({@link dev.legio.task.TaskTurnEndings}).
 *   <li>The answer: {@code reply}, {@code session_id}, {@code resumed}, {@code task_run_id} and
 *       {@code usage} (tokens and {@code cost_usd}, null when the model has no price): one JSON
 *       object, never a stream, so an {@code Accept} that takes no JSON is 406 before anything runs
 *       or is relayed ({@link JsonOnlyRoutes}).
 * </ul>
 */
final class TasksEndpoint {
  private final ServerParts parts;

  TasksEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  void run(ApiExchange exchange) throws Exception {
    JsonNode body = exchange.jsonBody();
    String key = Bodies.optionalString(body, "session_key", "session_key");
    if (key == null) {
      throw ApiException.badRequest(
          "field 'session_key' is missing: send 1-200 printable characters, e.g."
              + " \"campaign:7f3c\"");
    }
    requireReach(exchange.caller(), key);
    String agent = Bodies.optionalString(body, "agent", "agent");
    String text = Bodies.text(body, "text");
    String taskRunId = Bodies.optionalString(body, "task_run_id", "task_run_id");
    if (agent == null) {
      throw ApiException.badRequest(
          "field 'agent' is missing: name a centurio ("
              + String.join(", ", parts.agents().centurioNames())
              + ")");
    }
    exchange.afterEngine(
        () -> {
          try {
            return parts.tasks().run(key, agent, text, taskRunId);
          } catch (TaskRefusedException e) {
            throw refused(e);
          } catch (TaskBusyException e) {
            throw new ApiException(409, e.getMessage());
          } catch (TaskLeaseLostException e) {
            if (e.reply() == null) {
              throw new ApiException(409, Quoted.message(e.getMessage()));
            }
            throw new ApiException(
                409, Quoted.message(e.getMessage()), answerOf(e.reply(), e.taskRunId()));
          } catch (TaskFailedException e) {
            throw new ApiException(502, Quoted.message(e.getMessage()));
          } catch (TaskNotStoredException e) {
            throw new ApiException(
                503, Quoted.message(e.getMessage()), answerOf(e.reply(), e.taskRunId()));
          } catch (TaskInterruptedException e) {
            throw new ApiException(503, e.getMessage());
          }
        },
        result -> answer(exchange, result));
  }

  /** The fields an error carries when the answer came but was not stored: reply, task_run_id. */
  private static Map<String, Object> answerOf(String reply, String taskRunId) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("reply", reply);
    answer.put("task_run_id", taskRunId);
    return answer;
  }

  private static void answer(ApiExchange exchange, TaskResult result) throws java.io.IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("reply", result.reply());
    out.put("session_id", result.sessionId().toString());
    out.put("resumed", result.resumed());
    out.put("task_run_id", result.taskRunId());
    Map<String, Object> usage = new LinkedHashMap<>();
    usage.put("input_tokens", result.usage().tokens().input());
    usage.put("output_tokens", result.usage().tokens().output());
    usage.put("cache_read_tokens", result.usage().tokens().cacheRead());
    usage.put("cache_write_tokens", result.usage().tokens().cacheWrite());
    usage.put("cost_usd", result.usage().costUsd());
    out.put("usage", usage);
    exchange.json(200, out);
  }

  void sessions(ApiExchange exchange) throws Exception {
    String key = exchange.query("session_key", "the session key of the tasks, e.g. ticket:123");
    if (key == null) {
      throw ApiException.badRequest(
          "query parameter 'session_key' is missing: GET /api/v1/tasks/sessions?session_key=K");
    }
    requireReach(exchange.caller(), key);
    List<TaskSessionSummary> sessions;
    try {
      sessions = parts.tasks().sessionsOf(key);
    } catch (TaskRefusedException e) {
      throw refused(e);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("session_key", key);
    out.put("sessions", sessions.stream().map(TasksEndpoint::summary).toList());
    exchange.json(200, out);
  }

  /** 403 naming the caller's prefixes when {@code key} is not within them. */
  private static void requireReach(Caller caller, String key) {
    if (caller.reachesTaskKey(key)) {
      return;
    }
    List<String> prefixes = caller.keys().prefixes();
    throw new ApiException(
        403,
        "token '"
            + caller.token()
            + "' reaches only the session keys starting with "
            + String.join(" or ", prefixes.stream().map(p -> "'" + Quoted.of(p) + "'").toList())
            + "; '"
            + Quoted.of(key)
            + "' starts with none of them",
        Map.of("key_prefixes", prefixes));
  }

  private static ApiException refused(TaskRefusedException e) {
    return e.knownAgents().isEmpty()
        ? ApiException.badRequest(Quoted.message(e.getMessage()))
        : new ApiException(400, Quoted.message(e.getMessage()), Map.of("agents", e.knownAgents()));
  }

  private static Map<String, Object> summary(TaskSessionSummary s) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("session_id", s.sessionId().toString());
    out.put("agent", s.agent());
    out.put("resumable", s.resumable());
    TaskSessionRecord r = s.record();
    out.put("backend", r == null ? null : r.backend());
    out.put("expires_at", r == null ? null : Views.time(r.expiresAt()));
    out.put("first_turn_at", Views.time(s.totals().firstTurnAt()));
    out.put("last_turn_at", Views.time(s.totals().lastTurnAt()));
    UsageTotal t = s.totals().total();
    out.put("turns", t.turns());
    out.put("input_tokens", t.tokens().input());
    out.put("output_tokens", t.tokens().output());
    out.put("cache_read_tokens", t.tokens().cacheRead());
    out.put("cache_write_tokens", t.tokens().cacheWrite());
    out.put("cost_usd", t.costUsd());
    out.put("unknown_cost_turns", t.unknownCostTurns());
    return out;
  }
}
