package dev.legio.mcp;

import io.modelcontextprotocol.spec.ProtocolVersions;
import java.util.List;

/**
 * The MCP protocol versions Legio serves, on every transport. An initialize naming one of them is
 * answered with it; one naming another is answered with the latest (the client then decides). Over
 * HTTP, an {@code MCP-Protocol-Version} header naming any other version is refused with 400.
 */
public final class McpVersions {
  /** Oldest first. */
  public static final List<String> SUPPORTED =
      List.of(
          ProtocolVersions.MCP_2024_11_05,
          ProtocolVersions.MCP_2025_03_26,
          ProtocolVersions.MCP_2025_06_18,
          ProtocolVersions.MCP_2025_11_25);

  /** What an HTTP request without the header is taken to speak (the spec's rule). */
  public static final String HTTP_DEFAULT = ProtocolVersions.MCP_2025_03_26;

  private McpVersions() {}
}
