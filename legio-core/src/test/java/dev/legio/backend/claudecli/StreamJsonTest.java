package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.claudecli.StreamJson.Failure;
import org.junit.jupiter.api.Test;

class StreamJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void linesThatAreNotJsonObjectsAreSkipped() {
    assertThat(StreamJson.parse("Warning: something odd", "t")).isEmpty();
    assertThat(StreamJson.parse("[1,2]", "t")).isEmpty();
    assertThat(StreamJson.parse("", "t")).isEmpty();
    assertThat(StreamJson.parse("{\"type\":\"result\"}", "t")).isPresent();
  }

  @Test
  void toolCallsReadAsLegioStatusLines() throws Exception {
    var none = JSON.readTree("{}");
    assertThat(StreamJson.toolStatus("mcp__memoria_vorenus__read_edictum", none))
        .isEqualTo("⏳ Reading edicta...");
    assertThat(StreamJson.toolStatus("list_acta", none)).isEqualTo("⏳ Reading acta...");
    assertThat(StreamJson.toolStatus("mcp__memoria__write_commentarium", none))
        .isEqualTo("⏳ Writing commentarii...");
    assertThat(
            StreamJson.toolStatus(
                "mcp__legatus_tools__dispatch", JSON.readTree("{\"centurio\":\"vorenus\"}")))
        .isEqualTo("⏳ Dispatching to vorenus...");
    assertThat(StreamJson.toolStatus("Bash", none)).isEqualTo("⏳ Using Bash...");
  }

  @Test
  void textPreviewsAreTheFirstEightyCharactersOnOneLine() {
    String long100 = "a".repeat(100);
    assertThat(StreamJson.preview(long100, 80)).isEqualTo("a".repeat(80) + "…");
    assertThat(StreamJson.preview("two\n  lines", 80)).isEqualTo("two lines");
  }

  @Test
  void failuresAreClassifiedByWhatTheCliSaid() throws Exception {
    assertThat(
            StreamJson.classify("No conversation found with session ID: 1234", JSON.readTree("{}")))
        .isEqualTo(Failure.SESSION_NOT_FOUND);
    assertThat(StreamJson.classify("Error: Session ID 1234 is already in use.", null))
        .isEqualTo(Failure.SESSION_IN_USE);
    assertThat(
            StreamJson.classify(
                "Prompt is too long", JSON.readTree("{\"terminal_reason\":\"prompt_too_long\"}")))
        .isEqualTo(Failure.CONTEXT_OVERFLOW);
    assertThat(StreamJson.classify("API Error: 500 Internal server error", null))
        .isEqualTo(Failure.OTHER);
  }

  @Test
  void usageCountsCachedInputAsInput() throws Exception {
    var usage =
        StreamJson.usage(
            JSON.readTree(
                "{\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":200,"
                    + "\"cache_creation_input_tokens\":30,\"output_tokens\":7}}"));
    assertThat(usage.inputTokens()).isEqualTo(240);
    assertThat(usage.cacheReadTokens()).isEqualTo(200);
    assertThat(usage.cacheCreationTokens()).isEqualTo(30);
    assertThat(usage.outputTokens()).isEqualTo(7);
    assertThat(usage.reportedCostUsd()).isNull();
  }

  @Test
  void usageKeepsTheCostTheCliReports() throws Exception {
    var usage =
        StreamJson.usage(
            JSON.readTree(
                "{\"total_cost_usd\":0.0123,\"usage\":{\"input_tokens\":10,"
                    + "\"output_tokens\":7}}"));
    assertThat(usage.reportedCostUsd()).isEqualTo(0.0123);
  }

  @Test
  void withoutAWindowFromTheCliTheContextUsesTheKnownWindowOfTheModelThatAnswered()
      throws Exception {
    StreamJson.Requests requests = new StreamJson.Requests();
    requests.add(
        JSON.readTree(
            "{\"type\":\"assistant\",\"message\":{\"id\":\"m1\",\"model\":\"gpt-4o-mini\","
                + "\"usage\":{\"input_tokens\":100,\"cache_read_input_tokens\":50,"
                + "\"cache_creation_input_tokens\":0,\"output_tokens\":1}}}"));
    var result =
        JSON.readTree(
            "{\"type\":\"result\",\"usage\":{\"input_tokens\":100,"
                + "\"cache_read_input_tokens\":50,\"output_tokens\":9}}");

    var use =
        StreamJson.context(
            result, requests, "claude-opus", ContextWindows.hosted(java.util.Map.of()));
    assertThat(use.tokens()).isEqualTo(159); // one request: the result's output is its own
    assertThat(use.window()).isEqualTo(128_000); // gpt-4o answered, not the configured model

    var overridden =
        StreamJson.context(
            result, requests, null, ContextWindows.hosted(java.util.Map.of("gpt-4o", 64_000)));
    assertThat(overridden.window()).isEqualTo(64_000);

    // No assistant line at all: the result's figures, and the session's model.
    var bare =
        StreamJson.context(
            result,
            new StreamJson.Requests(),
            "claude-sonnet-4-5",
            ContextWindows.hosted(java.util.Map.of()));
    assertThat(bare.tokens()).isEqualTo(159);
    assertThat(bare.window()).isEqualTo(200_000);
  }

  @Test
  void theUserLineIsStreamJson() throws Exception {
    var line = JSON.readTree(StreamJson.userMessage("say \"hi\"\nplease"));
    assertThat(line.path("type").asText()).isEqualTo("user");
    assertThat(line.at("/message/role").asText()).isEqualTo("user");
    assertThat(line.at("/message/content").asText()).isEqualTo("say \"hi\"\nplease");
  }
}
