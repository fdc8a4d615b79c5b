package dev.legio.testing;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A model back-end for tests of the session engine: it records every session it opened and every
 * turn it received, answers {@code "<owner> answer <n>"}, can be told to fail or to run a hook
 * inside a turn, and reports a chosen number of input tokens per turn and, if told, a context use.
 *
 * <p>When built as resumable it keeps its conversations in a {@link Conversations} object that
 * outlives the back-end, like the Claude Code CLI keeps them on disk: a new back-end over the same
 * conversations (after a "restart") resumes them by id.
 */
public final class ScriptedBackend implements ModelBackend {

  /** Conversations kept "server-side", by back-end session id. */
  public static final class Conversations {
    final Map<String, List<String>> byId = new ConcurrentHashMap<>();

    /** The conversations by id (a test may put one there, as a CLI-written conversation). */
    public Map<String, List<String>> byId() {
      return byId;
    }
  }

  /** One turn as the back-end received it. */
  public record Turn(String owner, String sessionId, String systemPrompt, String message) {}

  private final boolean resumable;
  private final Conversations conversations;
  public final List<SessionSpec> opened = new CopyOnWriteArrayList<>();
  public final List<Turn> turns = new CopyOnWriteArrayList<>();

  /** The {@link TurnStart} each turn was sent with, in order (none for a turn sent without). */
  public final List<TurnStart> starts = new CopyOnWriteArrayList<>();

  public final Set<String> failing = ConcurrentHashMap.newKeySet();
  public volatile long inputTokensPerTurn = 10;
  public volatile Consumer<Turn> duringTurn = turn -> {};
  public volatile Function<Turn, String> answer = null;

  /** One question {@link #complete} received. */
  public record Completion(String systemPrompt, String prompt, String model) {}

  /** The questions {@link #complete} received, in order. */
  public final List<Completion> completions = new CopyOnWriteArrayList<>();

  /**
   * How {@link #complete} answers; null (the default): the back-end cannot complete, like the
   * offline model. An answer that throws is a failed request.
   */
  public volatile Function<Completion, String> completion = null;

  /** The context use each turn reports (null from the function, or no function: none). */
  public volatile Function<Turn, ContextUse> context = null;

  /** The kind this back-end reports ({@code [backend] kind}, or an agent's {@code backend}). */
  public volatile String kind = "scripted";

  private ScriptedBackend(boolean resumable, Conversations conversations) {
    this.resumable = resumable;
    this.conversations = conversations;
  }

  /** A back-end that loses its conversations when Legio restarts. */
  public static ScriptedBackend forgetful() {
    return new ScriptedBackend(false, new Conversations());
  }

  /** A back-end that resumes the given conversations by id. */
  public static ScriptedBackend resuming(Conversations conversations) {
    return new ScriptedBackend(true, conversations);
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public String displayName() {
    return "scripted model";
  }

  @Override
  public boolean canResume() {
    return resumable;
  }

  @Override
  public boolean canComplete() {
    return completion != null;
  }

  @Override
  public String complete(String systemPrompt, String prompt, String model) {
    Function<Completion, String> answer = completion;
    if (answer == null) {
      return ModelBackend.super.complete(systemPrompt, prompt, model);
    }
    Completion c = new Completion(systemPrompt, prompt, model);
    completions.add(c);
    return answer.apply(c);
  }

  @Override
  public BackendSession open(SessionSpec spec) {
    opened.add(spec);
    String id;
    boolean resumed;
    if (resumable && spec.resumeId() != null && conversations.byId.containsKey(spec.resumeId())) {
      id = spec.resumeId();
      resumed = true;
    } else {
      id = resumable ? UUID.randomUUID().toString() : null;
      resumed = false;
      if (id != null) {
        conversations.byId.put(id, new CopyOnWriteArrayList<>());
      }
    }
    List<String> history = id == null ? new ArrayList<>() : conversations.byId.get(id);
    return new BackendSession() {
      @Override
      public String backendSessionId() {
        return id;
      }

      @Override
      public boolean resumed() {
        return resumed;
      }

      @Override
      public TurnResult send(String userMessage, Consumer<BackendEvent> events, TurnStart start) {
        starts.add(start);
        return send(userMessage, events);
      }

      @Override
      public TurnResult send(String userMessage, Consumer<BackendEvent> events) {
        Turn turn = new Turn(spec.owner(), id, spec.systemPrompt(), userMessage);
        turns.add(turn);
        events.accept(new BackendEvent.Status("⏳ Thinking..."));
        duringTurn.accept(turn);
        if (failing.contains(spec.owner())) {
          throw new BackendException("scripted failure for " + spec.owner());
        }
        history.add(userMessage);
        String text =
            answer != null ? answer.apply(turn) : spec.owner() + " answer " + history.size();
        Function<Turn, ContextUse> use = context;
        return new TurnResult(
            text,
            new Usage(inputTokensPerTurn, 5, 0, 0, false),
            use == null ? null : use.apply(turn));
      }

      @Override
      public void close() {}
    };
  }

  /** The turns one owner received, in order. */
  public List<Turn> turnsOf(String owner) {
    return turns.stream().filter(t -> t.owner().equals(owner)).toList();
  }
}
