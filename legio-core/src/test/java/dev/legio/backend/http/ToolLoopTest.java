package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.Usage;
import dev.legio.testing.RecordingSleeper;
import dev.legio.testing.ScriptedTools;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ToolLoopTest {
  private final ScriptedChatClient script = new ScriptedChatClient();
  private final RetryingChatClient client =
      new RetryingChatClient(
          script, RetryPolicy.standard(0).withSleeper(new RecordingSleeper()), "Vendor", "v", null);
  private final List<BackendEvent> events = new ArrayList<>();

  private static ChatRequest request(List<ChatMessage> turn, List<ToolDefinition> tools) {
    return new ChatRequest("m", "system", null, turn, tools);
  }

  private ToolLoop.Outcome run(ToolLoop loop, Toolset tools) {
    return loop.run(
        "Scout the road", turn -> request(turn, tools.tools()), client, tools, events::add, "v");
  }

  @Test
  void toolsRunUntilTheModelAnswersWithoutCallingAnyAndTheUsageIsSummed() {
    ScriptedTools tools = new ScriptedTools(ScriptedTools.memoriaSearch(q -> "found " + q));
    script
        .callsTools(new ChatMessage.ToolUse("t1", "memoria_search", "{\"query\":\"road\"}"))
        .then(
            (request, text) -> {
              text.accept("Looking. ");
              return new ChatReply(
                  "Looking. ",
                  List.of(new ChatMessage.ToolUse("t2", "memoria_search", "{\"query\":\"carts\"}")),
                  new Usage(20, 6, 3, 0, false));
            })
        .answers("The road is clear.", 40, 9);

    ToolLoop.Outcome outcome = run(new ToolLoop("Vendor", 4), tools);

    assertThat(outcome.text()).isEqualTo("Looking.\n\nThe road is clear.");
    assertThat(outcome.usage()).isEqualTo(new Usage(70, 20, 3, 0, false));
    assertThat(tools.calls)
        .containsExactly(
            new ScriptedTools.Call("memoria_search", "{\"query\":\"road\"}"),
            new ScriptedTools.Call("memoria_search", "{\"query\":\"carts\"}"));
    assertThat(outcome.messages())
        .extracting(m -> m.getClass().getSimpleName())
        .containsExactly("User", "Assistant", "ToolResult", "Assistant", "ToolResult", "Assistant");
    assertThat(outcome.messages().get(2).text()).isEqualTo("found road");
    // The third request carries the whole turn so far.
    assertThat(script.requests.get(2).messages()).hasSize(5);
    assertThat(events).filteredOn(e -> e instanceof BackendEvent.ToolCall).hasSize(2);
    assertThat(events)
        .filteredOn(e -> e instanceof BackendEvent.Text)
        .containsExactly(
            new BackendEvent.Text("Looking. "), new BackendEvent.Text("The road is clear."));
    assertThat(outcome.contextTokens(null)).isEqualTo(49);
  }

  @Test
  void aModelStillCallingToolsAfterTheLastRoundFailsTheTurn() {
    ScriptedTools tools = new ScriptedTools(ScriptedTools.memoriaSearch());
    for (int i = 0; i < 3; i++) {
      script.callsTools(new ChatMessage.ToolUse("t" + i, "memoria_search", "{\"query\":\"x\"}"));
    }

    assertThatThrownBy(() -> run(new ToolLoop("Vendor", 2), tools))
        .isInstanceOf(BackendException.class)
        .hasMessage(
            "Vendor: the model was still calling tools after 2 rounds; the turn was stopped and"
                + " not stored. Ask again, more narrowly.");
    assertThat(tools.calls).hasSize(2);
  }

  @Test
  void aToolThatThrowsOrReturnsNothingGivesTheModelAnError() {
    Toolset broken =
        new Toolset() {
          @Override
          public List<ToolDefinition> tools() {
            return List.of();
          }

          @Override
          public ToolResult call(String name, String inputJson) {
            if (name.equals("boom")) {
              throw new IllegalStateException("disk full");
            }
            return null;
          }
        };
    script
        .callsTools(
            new ChatMessage.ToolUse("a", "boom", "{}"), new ChatMessage.ToolUse("b", "none", "{}"))
        .answers("Sorry.", 1, 1);

    ToolLoop.Outcome outcome = run(new ToolLoop("Vendor", 4), broken);

    assertThat(outcome.messages().subList(2, 4))
        .containsExactly(
            new ChatMessage.ToolResult("a", "boom", "the tool failed: disk full", true),
            new ChatMessage.ToolResult("b", "none", "the tool returned nothing", true));
  }

  @Test
  void withoutReportedUsageTheSizeAfterTheTurnIsEstimated() {
    script.then((request, text) -> new ChatReply("Yes.", List.of(), new Usage(1, 1, 0, 0, true)));
    ToolLoop.Outcome outcome = run(new ToolLoop("Vendor", 4), new ScriptedTools());
    Conversation before =
        new Conversation(
            UUID.randomUUID(), "v", "k", "m", "system", null, null, Instant.EPOCH, List.of());

    assertThat(outcome.contextTokens(before))
        .isEqualTo(
            before.estimateTokens()
                + TokenEstimator.ofMessages("Scout the road".length() + "Yes.".length(), 2));
  }
}
