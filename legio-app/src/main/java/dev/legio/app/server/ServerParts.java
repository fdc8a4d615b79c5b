package dev.legio.app.server;

import dev.legio.agents.AgentDirectory;
import dev.legio.app.LegioApp;
import dev.legio.config.SessionSettings;
import dev.legio.log.MessageLog;
import dev.legio.memoria.Memoria;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionStore;
import dev.legio.transcript.SessionHistoryEditor;
import dev.legio.transcript.TranscriptStore;
import dev.legio.usage.UsageLedger;
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
    SessionHistoryEditor historyEditor) {

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
        app.historyEditor());
  }
}
