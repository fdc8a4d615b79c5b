package dev.legio.app.server;

import dev.legio.agents.AgentDirectory;
import dev.legio.app.LegioApp;
import dev.legio.config.SessionSettings;
import dev.legio.log.MessageLog;
import dev.legio.memoria.Memoria;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionStore;
import dev.legio.task.TaskSessions;
import dev.legio.transcript.SessionHistoryEditor;
import dev.legio.transcript.TranscriptStore;
import dev.legio.usage.UsageLedger;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What the server's endpoints use, taken from the composition root ({@link #of}) or, in tests, from
 * an engine built around a back-end of their own.
 */
public record ServerParts(
    SessionEngine engine,
    MessageLog messageLog,
    SessionStore sessions,
    TranscriptStore transcripts,
    Memoria memoria,
    AgentDirectory agents,
    SessionSettings settings,
    Clock clock,
    UsageLedger usage,
    SessionHistoryEditor historyEditor,
    TaskSessions tasks,
    Path memoryDir) {

  /** Parts without the agents' long-term memory folder ({@code GET /agents/{name}/memory}: 404). */
  public ServerParts(
      SessionEngine engine,
      MessageLog messageLog,
      SessionStore sessions,
      TranscriptStore transcripts,
      Memoria memoria,
      AgentDirectory agents,
      SessionSettings settings,
      Clock clock,
      UsageLedger usage,
      SessionHistoryEditor historyEditor,
      TaskSessions tasks) {
    this(
        engine,
        messageLog,
        sessions,
        transcripts,
        memoria,
        agents,
        settings,
        clock,
        usage,
        historyEditor,
        tasks,
        null);
  }

  /** The ways in to the agents that every door shares. */
  public dev.legio.app.conversation.Conversations conversations() {
    return new dev.legio.app.conversation.Conversations(engine, settings);
  }

  public static ServerParts of(LegioApp app, Clock clock) {
    return new ServerParts(
        app.engine(),
        app.messageLog(),
        app.sessions(),
        app.transcripts(),
        app.memoria(),
        app.agents(),
        app.config().sessions(),
        clock,
        app.usage(),
        app.historyEditor(),
        app.tasks(),
        app.config().memory().dir());
  }
}
