package dev.legio.app.mcp;

import static dev.legio.app.mcp.McpHttpTransportTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.config.LegioConfig;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A POST to {@code /mcp} is read as UTF-8 exactly as the API reads a body, or refused. */
class McpBodyEncodingTest {
  private static final String LIST_ACTA =
      "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
          + "\"params\":{\"name\":\"list_acta\",\"arguments\":{}}}";

  @TempDir static Path dir;
  static LegioApp app;
  static McpHttpServer server;
  static McpHttpClient client;

  @BeforeAll
  static void start() {
    app = McpTestApps.initialised(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0), app.mcpTokens(), app::toolsFor, c -> true);
    client = new McpHttpClient(server.endpoint(), app.mcpTokens().tokenFor("vorenus"));
  }

  @AfterAll
  static void stop() {
    server.close();
    app.close();
  }

  /** A tools/call of publish_actum whose text holds {@code bytes} between "Bridge" and "out". */
  private static byte[] publishWith(byte... bytes) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(
        ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"publish_actum\",\"arguments\":{\"name\":\"north-road\",\"text\":\"Bridge")
            .getBytes(StandardCharsets.US_ASCII));
    body.writeBytes(bytes);
    body.writeBytes(" out.\"}}}".getBytes(StandardCharsets.US_ASCII));
    return body.toByteArray();
  }

  @Test
  void aBodyThatIsNotUtf8Is400NamingTheOffsetAndNothingIsPublished() throws Exception {
    String session = client.session();
    int offset = publishWith().length - " out.\"}}}".length();
    // An overlong '/' and a surrogate encoded as CESU-8: each once read as U+FFFD and stored.
    for (byte[] bad :
        new byte[][] {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}}) {
      HttpResponse<String> r = client.postBytes(publishWith(bad), session);
      assertError(r, 400, null, -32700, "not UTF-8 at byte offset " + offset);
      assertThat(r.body()).contains(String.format("0x%02X", bad[0]), "send the body in UTF-8");
    }
    JsonNode listed = McpHttpClient.message(client.post(LIST_ACTA, session));
    assertThat(listed.at("/result/content/0/text").asText()).isEqualTo("<acta></acta>");
    Path actum = app.workspace().castra().resolve("acta/north-road.xml");
    assertThat(actum).doesNotExist();

    // The same call in UTF-8 is published with its text as sent.
    HttpResponse<String> published =
        client.postBytes(publishWith("—".getBytes(StandardCharsets.UTF_8)), session);
    assertThat(McpHttpClient.message(published).at("/result/isError").asBoolean())
        .as(published.body())
        .isFalse();
    assertThat(McpHttpClient.message(client.post(LIST_ACTA, session)).toString())
        .contains("north-road");
    assertThat(Files.readString(actum)).contains("Bridge— out.");
  }
}
