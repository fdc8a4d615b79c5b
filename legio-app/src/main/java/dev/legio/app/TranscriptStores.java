package dev.legio.app;

import dev.legio.config.LegioConfig;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.RewindJournal;
import dev.legio.transcript.TranscriptRecorder;
import dev.legio.transcript.TranscriptStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * The transcript stores of one Legio: its own and the Claude Code CLI's.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Legio's own transcripts are in {@code [transcripts] dir}, in folder {@code [transcripts]
 *       project}, else in the folder Claude Code would use for the workspace's root as working
 *       directory; one store, opened on first use, serves the whole app.
 *   <li>The rewind journal's notes are kept beside Legio's own transcripts.
 *   <li>The Claude Code CLI's own transcripts (which a long CLI session's brief is written from,
 *       and which a rewind or fork of a CLI session copies) are in {@code
 *       $CLAUDE_CONFIG_DIR/projects}, else {@code ~/.claude/projects} ({@code $HOME}, else the
 *       {@code user.home} property), for the workspace's root as working directory.
 *   <li>One {@link TranscriptRecorder} writes the engine's turns to Legio's own transcripts; {@link
 *       #close} closes it (its last attempt at the turns a locked transcript kept), after the
 *       engine that tells it of turns is closed.
 * </ul>
 */
final class TranscriptStores implements AutoCloseable {
  private final LegioConfig.Transcripts settings;
  private final Path root;
  private final Map<String, String> env;
  private final Clock clock;
  private FileTranscriptStore own;
  private TranscriptRecorder recorder;

  /**
   * @param root the workspace's root, the sessions' working directory
   * @param env the environment, for the CLI's configuration folder
   */
  TranscriptStores(
      LegioConfig.Transcripts settings, Path root, Map<String, String> env, Clock clock) {
    this.settings = settings;
    this.root = root;
    this.env = env;
    this.clock = clock;
  }

  /** Legio's own transcripts, opened on first use. */
  synchronized FileTranscriptStore own() {
    if (own == null) {
      own = new FileTranscriptStore(settings.dir(), root, settings.project(), clock);
    }
    return own;
  }

  /**
   * Writes the engine's turns to {@link #own()}, created on first use; closed by {@link #close}.
   */
  synchronized TranscriptRecorder recorder() {
    if (recorder == null) {
      recorder = new TranscriptRecorder(own());
    }
    return recorder;
  }

  /** The notes that keep a rewind of a session whole across a crash, beside the transcripts. */
  synchronized RewindJournal rewinds() {
    return RewindJournal.beside(own());
  }

  /** The Claude Code CLI's own transcripts for the workspace. */
  TranscriptStore cli() {
    String configDir = env.get("CLAUDE_CONFIG_DIR");
    Path base =
        configDir != null && !configDir.isBlank()
            ? Path.of(configDir)
            : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".claude");
    return new FileTranscriptStore(base.resolve("projects"), root, clock);
  }

  /** Closes the recorder, if one was made: call it after the engine that tells it of turns. */
  @Override
  public synchronized void close() {
    if (recorder != null) {
      recorder.close();
      recorder = null;
    }
  }
}
