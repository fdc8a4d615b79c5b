package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.RealClaudeCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transcripts are compatible both ways with the real Claude Code CLI, run against a loopback fake
 * of the Messages API: Legio loads what the CLI writes, and {@code claude --resume} continues a
 * transcript Legio wrote (the fake sees the earlier turns).
 *
 * <p>Needs the CLI, found and installed by the same fixture as the other CLI tests ({@link
 * RealClaudeCli}): skipped with a message where it cannot be had, failed under CI ({@code
 * CI=true}).
 */
class ClaudeCodeCompatibilityTest {
  @TempDir Path dir;
  private Path cli;
  private Path home;
  private Path config;
  private Path project;

  @BeforeEach
  void findTheCli() throws IOException {
    cli = RealClaudeCli.executable();
    home = Files.createDirectories(dir.resolve("home"));
    config = home.resolve(".claude"); // RealClaudeCli.environment's CLAUDE_CONFIG_DIR
    project = Files.createDirectories(dir.resolve("project"));
  }

  /** Runs {@code claude -p ...} in the project folder against the fake; returns its output. */
  private String claude(FakeMessagesApi api, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(cli.toString(), "-p"));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("ANTHROPIC_") || k.startsWith("CLAUDE"));
    // the other CLI tests' environment: no retries, so a failed call to the fake fails the run
    env.putAll(RealClaudeCli.environment(home, api));
    // as Legio runs it (backend.claudecli.EagerTranscript): each turn written before its result,
    // not left to the clean-up at exit, which the CLI gives up after 2 s (the likely reason the
    // second run's answer was once missing from the transcript on a loaded machine)
    env.put("CLAUDE_CODE_EAGER_FLUSH", "1");
    Process p = builder.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("claude finished").isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    return output;
  }

  private FileTranscriptStore store() {
    return new FileTranscriptStore(config.resolve("projects"), project, Clock.systemUTC());
  }

  @Test
  void legioLoadsWhatTheCliWrites() throws Exception {
    String id = UUID.randomUUID().toString();
    try (FakeMessagesApi api = FakeMessagesApi.start()) {
      api.enqueue(FakeMessagesApi.Reply.text("The north road is clear."));
      String out = claude(api, "--session-id", id, "Scout the north road");
      assertThat(out).contains("The north road is clear.");
      api.enqueue(
          FakeMessagesApi.Reply.text("The bridge still stands.").withUsage(1_200, 30, 5_000, 700));
      String second = claude(api, "--resume", id, "And the bridge?");
      assertThat(second).contains("The bridge still stands.");
      assertThat(api.pending()).as("each run took its own answer").isZero();
    }

    FileTranscriptStore store = store();
    assertThat(Files.isRegularFile(store.file(id))).as("the CLI wrote " + store.file(id)).isTrue();
    Transcript t = store.load(id);
    List<TranscriptEntry> conversation =
        t.entries().stream().filter(e -> !e.type().equals("attachment")).toList();
    assertThat(conversation)
        .extracting(TranscriptEntry::role, TranscriptEntry::text)
        .contains(
            org.assertj.core.groups.Tuple.tuple("user", "Scout the north road"),
            org.assertj.core.groups.Tuple.tuple("assistant", "The north road is clear."),
            org.assertj.core.groups.Tuple.tuple("user", "And the bridge?"),
            org.assertj.core.groups.Tuple.tuple("assistant", "The bridge still stands."));
    assertThat(t.report().malformedLines()).isZero();
    assertThat(t.report().partialLastLine()).isFalse();
    // queue-operation, last-prompt, ...: known, not messages
    assertThat(t.report().metadata()).isPositive();
    assertThat(t.report().unknownTypes()).as("line types Legio does not know yet").isEmpty();
    for (TranscriptEntry e : t.entries()) {
      assertThat(e.json().get("sessionId").asText()).isEqualTo(id);
      assertThat(e.json().get("cwd").asText()).isEqualTo(project.toString());
    }
    assertThat(store.list()).extracting(TranscriptInfo::sessionId).containsExactly(id);
    // The listing's context figure: the last answer's usage as the CLI wrote it (1,200 uncached
    // + 5,000 cache read + 700 cache write + 30 output), and the model that answered.
    TranscriptContext context = store.list().get(0).context();
    assertThat(context.tokens()).isEqualTo(6_930);
    assertThat(context.model()).startsWith("claude-");
  }

  @Test
  void theCliResumesATranscriptLegioWrote() throws Exception {
    String id = UUID.randomUUID().toString();
    FileTranscriptStore store = store();
    NewEntry.Message user = NewEntry.user(null, "Remember this: the watchword is swordfish.");
    NewEntry.Message reply =
        NewEntry.assistant(
            user.uuid(),
            "Noted: swordfish.",
            "claude-sonnet-4-5",
            new dev.legio.backend.Usage(5_000, 12, 3_000, 500, false));
    store.append(id, List.of(NewEntry.agentName("vorenus"), user, reply));

    try (FakeMessagesApi api = FakeMessagesApi.start()) {
      api.enqueue(FakeMessagesApi.Reply.text("The watchword is swordfish."));
      String out = claude(api, "--resume", id, "What is the watchword?");
      assertThat(out).contains("The watchword is swordfish.");

      FakeMessagesApi.Request request =
          api.requests().stream()
              .filter(FakeMessagesApi.Request::isMessages)
              .reduce((a, b) -> b)
              .orElseThrow();
      String sent = String.join("\n", request.messageTexts());
      assertThat(sent)
          .contains("Remember this: the watchword is swordfish.")
          .contains("Noted: swordfish.");
      assertThat(request.lastUserText()).contains("What is the watchword?");
    }

    // The CLI appended its turn to the same transcript; Legio still loads all of it.
    Transcript t = store.load(id);
    assertThat(t.owner()).isEqualTo("vorenus");
    assertThat(t.entries())
        .extracting(TranscriptEntry::text)
        .contains(
            "Remember this: the watchword is swordfish.",
            "Noted: swordfish.",
            "What is the watchword?",
            "The watchword is swordfish.");
    assertThat(t.report().malformedLines()).isZero();
    TranscriptEntry legios = t.entries().get(1);
    assertThat(legios.message().path("usage").path("input_tokens").asLong()).isEqualTo(1_500);
  }
}
