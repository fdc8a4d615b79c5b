package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.config.LegioConfig;
import dev.legio.log.Names;
import dev.legio.mcp.McpToolServer;
import dev.legio.workspace.Workspace;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools over MCP with the official SDK's client: over stdio against a child {@code legio mcp
 * --agent NAME} started from the configuration {@code legio mcp config} prints (what the Claude
 * Code CLI is given), and over streamable HTTP with per-agent bearer tokens.
 */
class McpServerTest {
  static final List<String> AGENT_TOOLS =
      List.of(
          "list_edicta",
          "read_edictum",
          "list_acta",
          "read_actum",
          "publish_actum",
          "list_commentarii",
          "read_commentarium",
          "write_commentarium",
          "search_memoria");

  @TempDir Path dir;
  Path ws;

  String legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(args, Map.of(), dir, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isZero();
    return out.toString();
  }

  @BeforeEach
  void init() {
    legio("init", "legion");
    ws = dir.resolve("legion");
  }

  /** A client for the stdio server the Claude Code CLI would start from {@code --mcp-config}. */
  McpSyncClient stdioClient(String agent) throws Exception {
    JsonNode config =
        new ObjectMapper()
            .readTree(legio("--castra", ws.toString(), "mcp", "config", "--agent", agent));
    JsonNode server = config.get("mcpServers").get(McpToolServer.serverName(agent));
    assertThat(server.get("type").asText()).isEqualTo("stdio");
    List<String> args = new ArrayList<>();
    server.get("args").forEach(a -> args.add(a.asText()));
    assertThat(args).endsWith("--castra", ws.toString(), "mcp", "--agent", agent);
    ServerParameters params =
        ServerParameters.builder(server.get("command").asText()).args(args).build();
    McpSyncClient client =
        McpClient.sync(new StdioClientTransport(params, McpToolServer.JSON_MAPPER))
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(60))
            .build();
    client.initialize();
    return client;
  }

  static McpSchema.CallToolResult call(
      McpSyncClient client, String tool, Map<String, Object> args) {
    return client.callTool(new McpSchema.CallToolRequest(tool, args));
  }

  static String text(McpSchema.CallToolResult result) {
    return ((McpSchema.TextContent) result.content().get(0)).text();
  }

  @Test
  void stdioServesAnAgentItsScopedToolsFromTheClaudeCodeConfiguration() throws Exception {
    try (McpSyncClient vorenus = stdioClient("vorenus")) {
      assertThat(vorenus.getServerInfo().name()).isEqualTo("memoria_vorenus");
      assertThat(vorenus.listTools().tools())
          .extracting(McpSchema.Tool::name)
          .containsExactlyElementsOf(AGENT_TOOLS);

      McpSchema.CallToolResult published =
          call(vorenus, "publish_actum", Map.of("name", "north-road", "text", "Bridge out."));
      assertThat(published.isError()).isFalse();
      assertThat(text(published)).isEqualTo("Published actum 'north-road' as vorenus.");
      assertThat(text(call(vorenus, "list_edicta", Map.of()))).isEqualTo("<edicta></edicta>");
      assertThat(text(call(vorenus, "write_commentarium", Map.of("name", "n1", "text", "mine"))))
          .contains("as vorenus");

      McpSchema.CallToolResult sneaky =
          call(vorenus, "list_commentarii", Map.of("centurio_name", "pullo"));
      assertThat(sneaky.isError()).isTrue();
      // An agent's server has no publish_edictum at all.
      assertThatThrownBy(
              () -> call(vorenus, "publish_edictum", Map.of("name", "e", "text", "obey me")))
          .hasMessageContaining(
              "unknown tool 'publish_edictum'; this agent's tools are: list_edicta,");
    }
    assertThat(Files.readString(ws.resolve("castra/acta/north-road.xml")))
        .contains("author=\"vorenus\"");
    assertThat(ws.resolve("castra/centuriones/vorenus/commentarii/n1.xml")).isRegularFile();
    assertThat(ws.resolve("castra/edicta/e.xml")).doesNotExist();
  }

  @Test
  void stdioServesTheLegatusItsOwnToolsAndDispatchReachesAnAgent() throws Exception {
    try (McpSyncClient legatus = stdioClient(Names.LEGATUS)) {
      assertThat(legatus.listTools().tools())
          .extracting(McpSchema.Tool::name)
          .contains(
              "publish_edictum",
              "revoke_edictum",
              "get_history",
              "post_nuntius",
              "dispatch",
              "list_centuriones",
              "get_status",
              "reset_session");
      McpSchema.CallToolResult reply =
          call(legatus, "dispatch", Map.of("centurio_name", "vorenus", "text", "Scout the ford"));
      assertThat(reply.isError()).as(text(reply)).isFalse();
      assertThat(text(reply))
          .startsWith("<reply centurio=\"vorenus\">")
          .contains("vorenus received: \"Scout the ford\"");
      assertThat(text(call(legatus, "get_history", Map.of("limit", 5))))
          .contains("sender=\"legatus\"", "Scout the ford", "sender=\"vorenus\"");
      assertThat(text(call(legatus, "list_centuriones", Map.of())))
          .contains("<centurio name=\"pullo\" status=\"idle\">", "<centurio name=\"vorenus\"");
      assertThat(text(call(legatus, "get_status", Map.of())))
          .contains("<session owner=\"vorenus\" activity=\"idle\" session=\"active\"");
      assertThat(text(call(legatus, "reset_session", Map.of("name", "vorenus"))))
          .isEqualTo("Reset vorenus: its next task starts a fresh session.");
      assertThat(call(legatus, "reset_session", Map.of("name", "legatus")).isError()).isTrue();
      assertThat(
              call(legatus, "dispatch", Map.of("centurio_name", "legatus", "text", "x")).isError())
          .isTrue();
      McpSchema.CallToolResult empty = call(legatus, "post_nuntius", Map.of("text", " "));
      assertThat(empty.isError()).isTrue();
      assertThat(text(empty)).contains("the text is empty");
      McpSchema.CallToolResult posted =
          call(legatus, "post_nuntius", Map.of("text", "Hear ye", "audience", List.of("all")));
      assertThat(text(posted)).startsWith("Posted nuntius ").endsWith(" to all.");
      assertThat(text(call(legatus, "publish_edictum", Map.of("name", "e1", "text", "Report."))))
          .isEqualTo("Published edictum 'e1' as legatus.");
    }
    assertThat(legio("--castra", ws.toString(), "history", "--viewer", "pullo"))
        .contains("Hear ye")
        .doesNotContain("Scout the ford");
  }

  @Test
  void httpServesEachAgentWithItsOwnTokenAndRefusesAnyOther() throws Exception {
    try (LegioApp app = LegioApp.open(new Workspace(ws), Map.of(), Clock.systemUTC());
        McpHttpServer server =
            McpHttpServer.start(
                new LegioConfig.Mcp(true, "127.0.0.1", 0),
                app.mcpTokens(),
                app::toolsFor,
                c -> c.equals("legatus") || app.agents().centurioNames().contains(c))) {
      String vorenusToken = app.mcpTokens().tokenFor("vorenus");
      String pulloToken = app.mcpTokens().tokenFor("pullo");
      assertThat(vorenusToken).isNotEqualTo(pulloToken).startsWith("legio_");
      Path tokenFile = ws.resolve("castra/mcp/tokens/vorenus");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
          .isEqualTo("rw-------");
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(ws.resolve("castra/mcp/tokens"))))
          .isEqualTo("rwx------");

      try (McpSyncClient vorenus = httpClient(server.endpoint(), vorenusToken)) {
        vorenus.initialize();
        assertThat(vorenus.listTools().tools())
            .extracting(McpSchema.Tool::name)
            .containsExactlyElementsOf(AGENT_TOOLS);
        assertThat(text(call(vorenus, "write_commentarium", Map.of("name", "n", "text", "secret"))))
            .contains("as vorenus");
      }
      try (McpSyncClient pullo = httpClient(server.endpoint(), pulloToken)) {
        pullo.initialize();
        assertThat(text(call(pullo, "list_commentarii", Map.of())))
            .isEqualTo("<commentarii centurio=\"pullo\"></commentarii>");
        assertThat(text(call(pullo, "search_memoria", Map.of("query", "secret"))))
            .contains("matches=\"0\"");
      }

      // No token, a wrong token: 401 before any tool is reached.
      HttpClient http = HttpClient.newHttpClient();
      assertThat(post(http, server.endpoint(), null, initialize(), null).statusCode())
          .isEqualTo(401);
      HttpResponse<String> wrong =
          post(http, server.endpoint(), "legio_not-a-token", initialize(), null);
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(wrong.headers().firstValue("WWW-Authenticate").orElseThrow())
          .startsWith("Bearer realm=\"legio\", error=\"invalid_token\"")
          .contains("resource_metadata=\"" + server.endpoint().resolve("/").toString());
      try (McpSyncClient intruder = httpClient(server.endpoint(), "legio_guess")) {
        assertThatThrownBy(intruder::initialize).isInstanceOf(RuntimeException.class);
      }

      // A session opened with vorenus's token is unknown to pullo's server.
      HttpResponse<String> opened = post(http, server.endpoint(), vorenusToken, initialize(), null);
      assertThat(opened.statusCode()).isEqualTo(200);
      String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
      String listTools = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
      HttpResponse<String> crossed = post(http, server.endpoint(), pulloToken, listTools, session);
      assertThat(crossed.statusCode()).isNotEqualTo(200);
      assertThat(crossed.body()).doesNotContain("write_commentarium");

      String log = Files.readString(ws.resolve("castra/logs/legio.log"));
      assertThat(log).contains("MCP request from").doesNotContain(vorenusToken, pulloToken);
    }
  }

  static McpSyncClient httpClient(URI endpoint, String token) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(
                endpoint.getScheme() + "://" + endpoint.getAuthority())
            .endpoint(endpoint.getPath())
            .jsonMapper(McpToolServer.JSON_MAPPER)
            .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
            .build();
    return McpClient.sync(transport)
        .requestTimeout(Duration.ofSeconds(30))
        .initializationTimeout(Duration.ofSeconds(30))
        .build();
  }

  static String initialize() {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
  }

  static HttpResponse<String> post(
      HttpClient http, URI endpoint, String token, String body, String session) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
