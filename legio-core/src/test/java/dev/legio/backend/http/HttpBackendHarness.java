package dev.legio.backend.http;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.MutableClock;
import dev.legio.testing.RecordingSleeper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What the tests of each HTTP back-end share: a loopback server for the API, a SQLite store for the
 * conversations (reopened to simulate a restart), a clock and a sleeper that only records.
 */
public final class HttpBackendHarness implements AutoCloseable {
  public final LoopbackHttpServer server = LoopbackHttpServer.start();
  public final MutableClock clock = MutableClock.at("2026-03-01T09:00:00Z");
  public final RecordingSleeper sleeper = new RecordingSleeper();
  private final Path dir;
  private LegioStore store;

  public HttpBackendHarness(Path dir) {
    this.dir = dir;
    this.store = open();
  }

  private LegioStore open() {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(dir.resolve("praetorium.db"), 1 << 20, false, 2, clock));
  }

  public ConversationStore conversations() {
    return store.conversations();
  }

  /** Closes the store and opens it again, as a new Legio process would. */
  public void restart() {
    store.close();
    store = open();
  }

  public static SessionSpec spec(String owner, String resumeId) {
    return new SessionSpec(
        owner, "You are " + owner + ", a centurio.", null, SessionSpec.OPERATOR_ROLE, resumeId);
  }

  /** The events of one turn. */
  public static final class Events implements java.util.function.Consumer<BackendEvent> {
    public final List<BackendEvent> all = new ArrayList<>();

    @Override
    public void accept(BackendEvent event) {
      all.add(event);
    }

    public String text() {
      StringBuilder out = new StringBuilder();
      for (BackendEvent e : all) {
        if (e instanceof BackendEvent.Text t) {
          out.append(t.text());
        }
      }
      return out.toString();
    }

    public List<String> statuses() {
      return all.stream()
          .filter(e -> e instanceof BackendEvent.Status)
          .map(e -> ((BackendEvent.Status) e).text())
          .toList();
    }

    public List<BackendEvent.ToolCall> toolCalls() {
      return all.stream()
          .filter(e -> e instanceof BackendEvent.ToolCall)
          .map(e -> (BackendEvent.ToolCall) e)
          .toList();
    }
  }

  public Conversation stored(BackendSession session) {
    return conversations().find(UUID.fromString(session.backendSessionId())).orElseThrow();
  }

  @Override
  public void close() {
    server.close();
    store.close();
  }
}
