package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.backend.Usage;
import dev.legio.backend.anthropic.AnthropicBackend;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendHarness;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.LegioConfig;
import dev.legio.longterm.MemoryExtractor.Outcome;
import dev.legio.session.CompletedTurn;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.ScriptedTools;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The extraction gates and their state, against an Anthropic back-end on a fake Messages API. */
class MemoryExtractorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ONE_FACT =
      "{\"facts\": [{\"category\": \"preference\", \"text\": \"Caesar wants bullet points\","
          + " \"confidence\": 0.9}]}";

  @TempDir Path dir;
  private HttpBackendHarness h;
  private FakeMessagesApi api;
  private HttpBackend anthropic;
  private FileTranscriptStore transcripts;
  private final UUID session = UUID.fromString("01965f3a-0000-7000-8000-000000000001");
  private UUID last;
  private final List<MemoryExtractor> extractors = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new HttpBackendHarness(dir);
    api = FakeMessagesApi.start();
    api.fallback(r -> Reply.text(ONE_FACT));
    anthropic =
        AnthropicBackend.create(
            LegioConfig.Backend.of("anthropic")
                .withBaseUrl(api.baseUrl().toString())
                .withApiKey("sk-ant-test-0123456789abcdef"),
            h.conversations(),
            spec -> new ScriptedTools(),
            h.clock,
            h.sleeper);
    transcripts = new FileTranscriptStore(dir.resolve("transcripts"), dir, h.clock);
  }

  @AfterEach
  void stop() {
    extractors.forEach(MemoryExtractor::close);
    anthropic.close();
    api.close();
    h.close();
  }

  private MemoryExtractor extractor(boolean enabled) {
    MemoryExtractor e =
        new MemoryExtractor(
            new MemoryExtractor.Settings(
                dir.resolve("memory"), enabled, 20, 3, Duration.ofSeconds(10)),
            transcripts,
            kind ->
                switch (kind) {
                  case "anthropic" -> anthropic;
                  case "offline" -> new OfflineBackend();
                  default -> null;
                },
            h.clock);
    extractors.add(e);
    return e;
  }

  private MemoryExtractor extractor() {
    return extractor(true);
  }

  /** Appends {@code n} messages to the session's transcript, user and assistant in turn. */
  private void messages(int n) {
    List<NewEntry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String type = i % 2 == 0 ? "user" : "assistant";
      entries.add(entry(type, JSON.createObjectNode().put("role", type).put("content", "m" + i)));
    }
    transcripts.append(session.toString(), entries);
  }

  private NewEntry.Message entry(String type, JsonNode message) {
    UUID uuid = UUID.randomUUID();
    NewEntry.Message m = new NewEntry.Message(type, uuid, last, message);
    last = uuid;
    return m;
  }

  private CompletedTurn turn(String owner, int toolCalls, String kind) {
    return CompletedTurn.builder(owner, session)
        .sent("sent")
        .reply("reply")
        .usage(new Usage(10, 5, 0, 0, false))
        .at(h.clock.instant())
        .backendKind(kind)
        .toolCalls(toolCalls)
        .build();
  }

  private CompletedTurn turn(int toolCalls) {
    return turn("vorenus", toolCalls, "anthropic");
  }

  private int extractionRequests() {
    return (int) api.requests().stream().filter(FakeMessagesApi.Request::isMessages).count();
  }

  private Path memoryFile() {
    return dir.resolve("memory/vorenus/MEMORY.md");
  }

  @Test
  void nineteenMessagesAreNotEnoughTwentyAre() throws Exception {
    MemoryExtractor extractor = extractor();
    messages(19);

    assertThat(extractor.consider(turn(5)).outcome()).isEqualTo(Outcome.TOO_FEW_MESSAGES);
    assertThat(extractionRequests()).isZero();
    assertThat(memoryFile()).doesNotExist();

    messages(1);
    MemoryExtractor.Result result = extractor.consider(turn(0));

    assertThat(result.outcome()).isEqualTo(Outcome.EXTRACTED);
    assertThat(result.written())
        .containsExactly(
            new ExtractedFact(FactCategory.PREFERENCE, "Caesar wants bullet points", 0.9));
    assertThat(extractionRequests()).isEqualTo(1);
    assertThat(Files.readString(memoryFile()))
        .contains(
            "### Session memories — 2026-03-01\n"
                + "- [preference] Caesar wants bullet points (confidence 0.90)\n");
  }

  @Test
  void afterTheFirstExtractionTheNextNeedsThreeToolCalls() {
    MemoryExtractor extractor = extractor();
    messages(20);
    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.EXTRACTED);

    messages(2);
    assertThat(extractor.consider(turn(2)).outcome()).isEqualTo(Outcome.TOO_FEW_TOOL_CALLS);
    assertThat(extractionRequests()).isEqualTo(1);

    messages(2);
    assertThat(extractor.consider(turn(1)).outcome()).isEqualTo(Outcome.EXTRACTED);
    assertThat(extractionRequests()).isEqualTo(2);

    // The count starts again after each extraction.
    assertThat(extractor.consider(turn(2)).outcome()).isEqualTo(Outcome.TOO_FEW_TOOL_CALLS);
  }

  @Test
  void theStateSurvivesANewExtractorSoNothingIsRepeatedOrLost() {
    MemoryExtractor first = extractor();
    messages(20);
    assertThat(first.consider(turn(0)).outcome()).isEqualTo(Outcome.EXTRACTED);
    assertThat(first.consider(turn(2)).outcome()).isEqualTo(Outcome.TOO_FEW_TOOL_CALLS);
    first.close();

    MemoryExtractor second = extractor();
    assertThat(second.consider(turn(0)).outcome()).isEqualTo(Outcome.TOO_FEW_TOOL_CALLS);
    assertThat(extractionRequests()).isEqualTo(1);
    // The two tool calls counted before the restart still count.
    assertThat(second.consider(turn(1)).outcome()).isEqualTo(Outcome.EXTRACTED);
    assertThat(extractionRequests()).isEqualTo(2);
    assertThat(dir.resolve("memory/vorenus/.extraction_state.json")).exists();
  }

  @Test
  void channelSessionsAreNeverConsidered() throws Exception {
    MemoryExtractor extractor = extractor();
    messages(30);

    assertThat(extractor.consider(turn("telegram:1", 5, "anthropic")).outcome())
        .isEqualTo(Outcome.NOT_AN_AGENT);
    extractor.turnCompleted(turn("telegram:1", 5, "anthropic"));
    assertThat(extractor.awaitIdle(Duration.ofSeconds(10))).isTrue();

    assertThat(extractionRequests()).isZero();
    assertThat(dir.resolve("memory")).doesNotExist();
  }

  @Test
  void aPendingToolCallWaitsForItsResult() {
    MemoryExtractor extractor = extractor();
    messages(19);
    JsonNode toolUse =
        JSON.createObjectNode()
            .put("role", "assistant")
            .set(
                "content",
                JSON.createArrayNode()
                    .add(JSON.createObjectNode().put("type", "text").put("text", "Looking."))
                    .add(
                        JSON.createObjectNode()
                            .put("type", "tool_use")
                            .put("id", "toolu_1")
                            .put("name", "recall")
                            .set("input", JSON.createObjectNode())));
    transcripts.append(session.toString(), List.of(entry("assistant", toolUse)));

    assertThat(extractor.consider(turn(1)).outcome()).isEqualTo(Outcome.TOOL_CALL_PENDING);
    assertThat(extractionRequests()).isZero();

    JsonNode result =
        JSON.createObjectNode()
            .put("role", "user")
            .set(
                "content",
                JSON.createArrayNode()
                    .add(
                        JSON.createObjectNode()
                            .put("type", "tool_result")
                            .put("tool_use_id", "toolu_1")
                            .put("content", "the north road")));
    transcripts.append(session.toString(), List.of(entry("user", result)));

    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.EXTRACTED);
  }

  @Test
  void turnedOffItDoesNothing() throws Exception {
    MemoryExtractor extractor = extractor(false);
    messages(30);

    assertThat(extractor.consider(turn(5)).outcome()).isEqualTo(Outcome.DISABLED);
    extractor.turnCompleted(turn(5));
    extractor.awaitIdle(Duration.ofSeconds(10));

    assertThat(extractionRequests()).isZero();
    assertThat(dir.resolve("memory")).doesNotExist();
  }

  @Test
  void theOfflineModelCannotExtractSoItsSessionsAreSkipped() {
    MemoryExtractor extractor = extractor();
    messages(30);

    assertThat(extractor.consider(turn("vorenus", 5, "offline")).outcome())
        .isEqualTo(Outcome.BACKEND_CANNOT_COMPLETE);
    assertThat(dir.resolve("memory")).as("no folder, no state").doesNotExist();
  }

  @Test
  void aFailedRequestWritesNothingAndIsTriedAgainAfterTheNextTurn() {
    MemoryExtractor extractor = extractor();
    messages(20);
    api.enqueue(Reply.error(400, "invalid_request_error", "the prompt is malformed"));

    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(memoryFile()).doesNotExist();

    messages(2);
    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.EXTRACTED);
    assertThat(memoryFile()).exists();
  }

  @Test
  void anAnswerWithoutJsonWritesNothingAndCountsNoExtraction() throws Exception {
    MemoryExtractor extractor = extractor();
    messages(20);
    api.enqueue(Reply.text("Caesar seems to like bullet points, and {the Gauls} are restless."));

    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(memoryFile()).doesNotExist();
    assertThat(Files.readString(dir.resolve("memory/vorenus/.extraction_state.json")))
        .contains("\"extractions\" : 0");

    // Not yet extracted, so the tool-call gate does not apply: the next turn tries again.
    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.EXTRACTED);
  }

  @Test
  void aCorruptStateFileIsMovedAsideAndExtractionGoesOn() throws Exception {
    Path state = dir.resolve("memory/vorenus/.extraction_state.json");
    Files.createDirectories(state.getParent());
    Files.writeString(state, "{\"sessions\": {\"x\": ");
    MemoryExtractor extractor = extractor();
    messages(20);

    assertThat(extractor.consider(turn(0)).outcome()).isEqualTo(Outcome.EXTRACTED);
    assertThat(Files.readString(state.resolveSibling(".extraction_state.json.corrupt")))
        .isEqualTo("{\"sessions\": {\"x\": ");
    assertThat(Files.readString(state)).contains("\"extractions\" : 1");
  }
}
