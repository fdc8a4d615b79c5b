package dev.legio.testing;

import dev.legio.backend.ToolDefinition;
import dev.legio.backend.ToolExecutor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A {@link ToolExecutor} for tests of the tool-use loop: it offers the tools it was given, records
 * every call, and answers each tool with a scripted function of the input (an unknown tool gets an
 * error result, as a real executor's would).
 */
public final class ScriptedTools implements ToolExecutor {
  /** A call the model made. */
  public record Call(String name, String inputJson) {}

  private final List<ToolDefinition> definitions;
  private final Map<String, Function<String, Result>> answers = new ConcurrentHashMap<>();
  public final List<Call> calls = new CopyOnWriteArrayList<>();

  public ScriptedTools(ToolDefinition... definitions) {
    this.definitions = List.of(definitions);
  }

  /** Answers calls of {@code name} with {@code answer(inputJson)}. */
  public ScriptedTools answer(String name, Function<String, Result> answer) {
    answers.put(name, answer);
    return this;
  }

  /** A memory-search tool with a one-field schema, the shape Legio's memory tools have. */
  public static ToolDefinition memoriaSearch() {
    return new ToolDefinition(
        "memoria_search",
        "Search Legio's memory stores",
        "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}},"
            + "\"required\":[\"query\"]}");
  }

  @Override
  public List<ToolDefinition> definitions() {
    return definitions;
  }

  @Override
  public Result execute(String name, String inputJson) {
    calls.add(new Call(name, inputJson));
    Function<String, Result> answer = answers.get(name);
    return answer == null
        ? Result.error("there is no tool named '" + name + "'")
        : answer.apply(inputJson);
  }
}
