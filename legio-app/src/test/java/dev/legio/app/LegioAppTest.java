package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.config.ConfigException;
import dev.legio.log.Audience;
import dev.legio.log.NewMessage;
import dev.legio.session.SessionRecord;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LegioAppTest {
  @TempDir Path dir;

  @Test
  void theMessageLogAndTheSessionsShareOneStoreThatOutlivesTheApp() {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    MutableClock clock = MutableClock.at("2026-02-15T12:00:00Z");
    SessionRecord session =
        new SessionRecord(
            "vorenus",
            UUID.randomUUID(),
            "offline",
            null,
            "0".repeat(64),
            null,
            0,
            0,
            0,
            0,
            clock.instant(),
            clock.instant(),
            clock.instant().plusSeconds(3600),
            SessionRecord.State.ACTIVE,
            null,
            0);

    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      assertThat(app.store()).isSameAs(app.store());
      assertThat(app.messageLog()).isSameAs(app.store().messageLog());
      assertThat(app.sessions()).isSameAs(app.store().sessions());
      app.messageLog().append(NewMessage.of("caesar", Audience.of("vorenus"), "Salve"));
      app.sessions().save(session);
      assertThat(
              app.sessions()
                  .tryLease("vorenus", "this-node", clock.instant(), Duration.ofMinutes(1)))
          .isTrue();
    }

    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      assertThat(app.messageLog().size()).isEqualTo(1);
      assertThat(app.sessions().find("vorenus")).contains(session);
      assertThat(
              app.sessions()
                  .tryLease("vorenus", "other-node", clock.instant(), Duration.ofMinutes(1)))
          .isFalse();
    }
  }

  @Test
  void claudeCliIsChosenByConfigAndAMissingBinarySaysHowToGetOne() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path fakeClaude = dir.resolve("bin/claude");
    Files.createDirectories(fakeClaude.getParent());
    Files.writeString(fakeClaude, "#!/bin/sh\n");
    Files.setPosixFilePermissions(fakeClaude, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path config = workspace.configFile();
    Files.writeString(
        config,
        Files.readString(config)
            .replace("kind = \"auto\"", "kind = \"claude-cli\"")
            .replace("mode = \"persistent\"", "mode = \"per_turn\""));
    MutableClock clock = MutableClock.at("2026-02-15T12:00:00Z");

    try (LegioApp app =
        LegioApp.open(workspace, Map.of("PATH", fakeClaude.getParent().toString()), clock)) {
      ClaudeCliBackend backend = (ClaudeCliBackend) app.backend();
      assertThat(backend.kind()).isEqualTo("claude-cli");
      assertThat(backend.canResume()).isTrue();
      assertThat(backend.options().executable()).isEqualTo(fakeClaude);
      assertThat(backend.options().mode()).isEqualTo(ClaudeCliBackend.Mode.PER_TURN);
      assertThat(backend.options().workingDirectory()).isEqualTo(workspace.root());
    }

    Map<String, String> nothing =
        Map.of("PATH", dir.resolve("empty").toString(), "LEGIO_CLAUDE_CLI_DIR", dir.toString());
    try (LegioApp app = LegioApp.open(workspace, nothing, clock)) {
      assertThatThrownBy(app::backend)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("legio.toml")
          .hasMessageContaining("bin/install-claude-cli")
          .hasMessageContaining("[backend] kind");
    }
  }

  @Test
  void anAgentThatNamesItsOwnBackEndIsAnsweredByItWhileTheOthersUseTheConfiguredOne()
      throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path config = workspace.configFile();
    Files.writeString(
        config, Files.readString(config).replace("kind = \"auto\"", "kind = \"ollama\""));
    Path vorenus = workspace.castra().resolve("centuriones/vorenus/prompt.md");
    Files.writeString(
        vorenus, Files.readString(vorenus).replaceFirst("---\n", "---\nbackend: offline\n"));

    try (LegioApp app =
        LegioApp.open(workspace, Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      assertThat(app.backend().kind()).isEqualTo("ollama");
      dev.legio.session.Outcome outcome =
          app.engine().handle("@vorenus Report", dev.legio.session.DispatchListener.NONE);

      assertThat(outcome.ok()).isTrue();
      assertThat(outcome.replies().get(0).backendName()).startsWith("offline");
      assertThat(outcome.replies().get(0).text()).contains("vorenus received");
      assertThat(app.sessions().find("vorenus").orElseThrow().backend()).isEqualTo("offline");
    }
  }

  @Test
  void theLogFileAndTheTranscriptsAreTheOwnersOnly() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    Workspace workspace = new Workspace(dir.resolve("legion"));
    WorkspaceInitializer.initialise(workspace);
    try (LegioApp app =
        LegioApp.open(workspace, Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      org.slf4j.LoggerFactory.getLogger(LegioAppTest.class).info("a line for the log file");
      Path log = app.config().logging().file();
      assertThat(Files.readString(log)).contains("a line for the log file");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log)))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log.getParent())))
          .isEqualTo("rwx------");

      String id = UUID.randomUUID().toString();
      app.transcripts()
          .append(id, java.util.List.of(dev.legio.transcript.NewEntry.user(null, "private")));
      Path transcripts = app.config().transcripts().dir();
      try (var files = Files.walk(transcripts)) {
        for (Path p : files.toList()) {
          assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
              .as(p.toString())
              .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
        }
      }
    }
  }

  @Test
  void closingTheAppWritesTheTurnsALockedTranscriptKeptWithoutWaitingForANextTurn()
      throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path config = workspace.configFile();
    Files.writeString(
        config, Files.readString(config).replace("kind = \"auto\"", "kind = \"offline\""));
    String id;
    dev.legio.transcript.TranscriptStore transcripts;
    try (LegioApp app =
        LegioApp.open(workspace, Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      transcripts = app.transcripts();
      app.engine().handle("@vorenus Report", dev.legio.session.DispatchListener.NONE);
      id = app.sessions().find("vorenus").orElseThrow().sessionId().toString();
      awaitMessages(transcripts, id, 2);
      Path lock =
          ((dev.legio.transcript.FileTranscriptStore) transcripts)
              .folder()
              .resolve("." + id + ".lock");
      try (dev.legio.testing.LogCapture logs =
          new dev.legio.testing.LogCapture(
              dev.legio.transcript.TranscriptRecorder.class.getName())) {
        try (dev.legio.testing.HeldFileLock other = dev.legio.testing.HeldFileLock.hold(lock)) {
          app.engine().handle("@vorenus Again", dev.legio.session.DispatchListener.NONE);
          long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
          while (!logs.warningsAndErrors().contains("the turn is kept")
              && System.nanoTime() < deadline) {
            Thread.sleep(20);
          }
          assertThat(logs.warningsAndErrors()).contains("the turn is kept");
        }
      }
      // Closed at once, before the recorder's own retry (1 s after it kept the turn).
    }
    java.util.List<dev.legio.transcript.TranscriptEntry> entries = transcripts.load(id).entries();
    assertThat(entries).hasSize(4);
    assertThat(entries.get(2).text()).contains("Again");
  }

  /** Waits up to 20 s for the session's transcript to hold {@code count} messages. */
  private static void awaitMessages(
      dev.legio.transcript.TranscriptStore transcripts, String id, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (transcripts.load(id).entries().size() >= count) {
          return;
        }
      } catch (dev.legio.transcript.NoSuchTranscriptException e) {
        // not written yet
      }
      Thread.sleep(20);
    }
    assertThat(transcripts.load(id).entries()).hasSize(count);
  }
}
