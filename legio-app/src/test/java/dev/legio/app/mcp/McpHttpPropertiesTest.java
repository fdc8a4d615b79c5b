package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.config.LegioConfig;
import dev.legio.mcp.McpMessages;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Whatever a client POSTs to Legio's MCP endpoint, every request with an id is answered, no answer
 * leaks a stack trace, and a normal tool call in the same session still works afterwards.
 */
class McpHttpPropertiesTest {
  static Path dir;
  static LegioApp app;
  static McpHttpServer server;
  static McpHttpClient client;
  static String session;

  @BeforeContainer
  static void start() throws Exception {
    dir = Files.createTempDirectory("legio-mcp-props");
    app = McpTestApps.initialised(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0),
            app.mcpTokens(),
            app::toolsFor,
            c -> c.equals("legatus") || app.agents().centurioNames().contains(c));
    client = new McpHttpClient(server.endpoint(), app.mcpTokens().tokenFor("vorenus"));
    session = client.session();
  }

  @AfterContainer
  static void stop() throws Exception {
    server.close();
    app.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Provide
  Arbitrary<byte[]> anyBytes() {
    return McpMessages.bytes();
  }

  @Provide
  Arbitrary<JsonNode> anyJson() {
    return McpMessages.json();
  }

  @Provide
  Arbitrary<JsonNode> jsonRpcLike() {
    return McpMessages.jsonRpcLike();
  }

  @Property(tries = 40)
  void anyBytesGetAJsonRpcAnswerAndServingGoesOn(@ForAll("anyBytes") byte[] body) throws Exception {
    HttpResponse<String> r = client.postBytes(body, session);
    assertSafe(r);
    afterwardsANormalCallWorks();
  }

  @Property(tries = 60)
  void anyJsonGetsAJsonRpcAnswerAndServingGoesOn(@ForAll("anyJson") JsonNode body)
      throws Exception {
    check(body);
  }

  @Property(tries = 120)
  void anyJsonRpcLikeMessageIsAnsweredAndServingGoesOn(@ForAll("jsonRpcLike") JsonNode body)
      throws Exception {
    check(body);
  }

  private static void check(JsonNode body) throws Exception {
    HttpResponse<String> r = client.post(body.toString(), session);
    assertSafe(r);
    Optional<JsonNode> id = McpMessages.answerableId(body);
    if (id.isPresent()) {
      assertThat(r.statusCode()).as(r.body()).isIn(200, 400);
      JsonNode answer = McpHttpClient.message(r);
      assertThat(answer.path("id")).as(r.body()).isEqualTo(id.get());
      assertThat(answer.has("result") || answer.has("error")).isTrue();
    }
    afterwardsANormalCallWorks();
  }

  private static void assertSafe(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isIn(200, 202, 400);
    assertThat(r.body()).doesNotContain(McpMessages.LEAKS);
    if (!r.body().isEmpty()) {
      assertThat(McpHttpClient.message(r).path("jsonrpc").asText()).isEqualTo("2.0");
    }
  }

  private static void afterwardsANormalCallWorks() throws Exception {
    JsonNode ok =
        McpHttpClient.message(
            client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":\"probe\",\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"list_acta\",\"arguments\":{}}}",
                session));
    assertThat(ok.at("/result/content/0/text").asText()).as(ok.toString()).startsWith("<acta");
  }
}
