package dev.legio.testing;

import static dev.legio.tools.ToolParameter.Type.STRING;

import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolInput;
import dev.legio.tools.ToolParameter;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A {@link Toolset} for tests of the tool-use loop: a real {@link Toolbox} of the definitions it
 * was given (so input is checked and unknown tools are refused as in production), which records
 * every call the model made.
 */
public final class ScriptedTools implements Toolset {
  /** A call the model made. */
  public record Call(String name, String inputJson) {}

  private final Toolbox toolbox;
  public final List<Call> calls = new CopyOnWriteArrayList<>();

  public ScriptedTools(ToolDefinition... definitions) {
    this.toolbox = new Toolbox("scripted", List.of(definitions));
  }

  /**
   * A memory-search tool with one required string parameter, {@code query}, the shape of Legio's
   * {@code search_memoria}, answering with {@code answer(query)}.
   */
  public static ToolDefinition memoriaSearch(Function<String, String> answer) {
    return new ToolDefinition(
        "memoria_search",
        "Search Legio's memory stores",
        List.of(ToolParameter.required("query", STRING, "One or more words.")),
        (ToolInput in) -> answer.apply(in.string("query")));
  }

  /** {@link #memoriaSearch(Function)} that finds nothing. */
  public static ToolDefinition memoriaSearch() {
    return memoriaSearch(query -> "nothing found for " + query);
  }

  @Override
  public List<ToolDefinition> tools() {
    return toolbox.tools();
  }

  @Override
  public ToolResult call(String name, String inputJson) {
    calls.add(new Call(name, inputJson));
    return toolbox.call(name, inputJson);
  }
}
