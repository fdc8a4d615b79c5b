package dev.legio.tools;

import java.util.List;

/**
 * The tools one caller may use, whatever carries the calls: the MCP servers ({@code legio mcp},
 * {@code legio serve}) and the HTTP back-ends' tool-use loops all go through this seam.
 *
 * <p>A toolset is made for one caller (see {@code LegioApp.toolsFor}); scoping is structural: an
 * agent's toolset has no tool or parameter that names another agent.
 */
public interface Toolset {
  /** The caller's tools: names, descriptions and JSON schemas. */
  List<ToolDefinition> tools();

  /**
   * Runs one call. Never throws for a bad call: an unknown tool, input that does not match the
   * schema, or a request the caller may not make returns an {@link ToolResult#error} whose text
   * says what to correct.
   *
   * @param inputJson the tool's input, a JSON object ({@code null} or empty: {@code {}})
   */
  ToolResult call(String name, String inputJson);
}
