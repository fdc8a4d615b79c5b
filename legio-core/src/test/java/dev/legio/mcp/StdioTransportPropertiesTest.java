package dev.legio.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever a client writes to {@code legio mcp}'s stdin, every request with an id is answered,
 * nothing leaks a stack trace, and a normal call still works afterwards.
 */
class StdioTransportPropertiesTest {
  @Provide
  Arbitrary<JsonNode> anyJson() {
    return McpMessages.json();
  }

  @Provide
  Arbitrary<JsonNode> jsonRpcLike() {
    return McpMessages.jsonRpcLike();
  }

  @Provide
  Arbitrary<byte[]> anyBytes() {
    return McpMessages.bytes();
  }

  @Property(tries = 60)
  void anyBytesAreAnsweredWithoutLeaksAndServingGoesOn(@ForAll("anyBytes") byte[] line)
      throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      s.sendBytes(line);
      s.sendBytes(new byte[] {'\n'});
      afterwardsANormalCallWorksAndNothingLeaked(s);
    }
  }

  @Property(tries = 80)
  void anyJsonIsAnsweredWithoutLeaksAndServingGoesOn(@ForAll("anyJson") JsonNode message)
      throws Exception {
    sendAndCheck(message);
  }

  @Property(tries = 150)
  void anyJsonRpcLikeMessageIsAnsweredWithoutLeaksAndServingGoesOn(
      @ForAll("jsonRpcLike") JsonNode message) throws Exception {
    sendAndCheck(message);
  }

  private static void sendAndCheck(JsonNode message) throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      s.send(message.toString());
      Optional<JsonNode> id = McpMessages.answerableId(message);
      if (id.isPresent()) {
        JsonNode answer = s.answerTo(StdioHarness.JSON.treeToValue(id.get(), Object.class));
        assertThat(answer.has("result") || answer.has("error")).as(answer.toString()).isTrue();
      }
      afterwardsANormalCallWorksAndNothingLeaked(s);
    }
  }

  static void afterwardsANormalCallWorksAndNothingLeaked(StdioHarness s) throws Exception {
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"probe\",\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"greet\",\"arguments\":{}}}");
    assertThat(s.answerTo("probe").at("/result/content/0/text").asText())
        .isEqualTo("Ave, vorenus.");
    for (String line : s.seen()) {
      assertThat(line).doesNotContain(McpMessages.LEAKS);
      JsonNode n = StdioHarness.JSON.readTree(line);
      assertThat(n.path("jsonrpc").asText()).isEqualTo("2.0");
    }
  }
}
