package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FakeMessagesApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ordinary failure (the model refuses the request) shows as short lines on standard error, the
 * stack trace and its causes in the log file only, as the README promises.
 */
class OrdinaryFailureProcessTest {
  @TempDir Path dir;

  @Test
  void aFailedTurnPrintsNoStackTraceOnStderrAndLogsItInTheLogFile() throws Exception {
    try (FakeMessagesApi model = FakeMessagesApi.start()) {
      model.enqueue(FakeMessagesApi.Reply.error(400, "invalid_request_error", "model: unknown"));
      Path ws = Workspaces.init(dir, "legion");
      Workspaces.edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
      Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + model.baseUrl() + "\"");

      LegioProcess say =
          LegioProcess.run(
              dir,
              Map.of("ANTHROPIC_API_KEY", "test-key-failure-0000"),
              Duration.ofSeconds(60),
              "--castra",
              ws.toString(),
              "say",
              "@vorenus",
              "report");

      assertThat(say.exitCode()).isEqualTo(1);
      assertThat(say.stdout() + say.stderr()).contains("An error occurred");
      assertThat(say.stderr()).doesNotContain("\tat ").doesNotContain("Caused by");
      assertThat(say.stderr().lines().filter(l -> !l.startsWith("legio: ")).toList())
          .allSatisfy(l -> assertThat(l).doesNotContain("Exception"));
      assertThat(Workspaces.logFile(ws)).contains("\tat ").contains("HTTP 400");
    }
  }
}
