package dev.legio.app;

import dev.legio.workspace.Workspace;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * Legio embedded in a Java program: the session layer of a platform that runs agents itself instead
 * of calling {@code legio serve} over HTTP.
 *
 * <pre>{@code
 * try (Legio legio = Legio.open(Path.of("castra"))) {
 *   TaskResult r = legio.tasks().run("campaign:7f3c", "copywriter", "Write the tagline.", "run-1");
 *   System.out.println(r.reply() + " (" + r.usage().costUsd() + " USD)");
 * }
 * }</pre>
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #open} takes a Legio workspace folder (the one {@code legio init} made, holding
 *       {@code legio.toml}; what {@code --castra DIR} names) and reads its configuration; the
 *       database and back-ends open on first use. API keys come from the process's environment.
 *   <li>{@link #tasks()} is the same task service as {@code POST /api/v1/tasks}: the same sessions,
 *       the same ledger, the same rules ({@link dev.legio.task.TaskSessions}).
 *   <li>Several processes may open the same workspace on a shared PostgreSQL database (or one
 *       SQLite file on one host): task sessions' leases keep one turn at a time per (key, agent).
 *   <li>An expired session is never resumed, but an embedded Legio starts no threads of its own:
 *       the deletion of expired task sessions and the closing of idle CLI processes are done by the
 *       maintenance of a {@code legio serve} on the same database, or by the platform calling
 *       {@link Tasks#deleteExpired()} (daily) and {@link Tasks#closeIdle()} (every few minutes)
 *       from its own scheduler.
 *   <li>{@link #close()} closes the live back-end sessions (their conversations stay resumable),
 *       the back-ends and the database.
 * </ul>
 */
public final class Legio implements AutoCloseable {
  private final LegioApp app;
  private final Tasks tasks;

  private Legio(LegioApp app) {
    this.app = app;
    this.tasks = new Tasks(app::tasks);
  }

  /**
   * Opens the workspace at {@code workspace}, with the process's environment and the system clock.
   *
   * @throws dev.legio.workspace.WorkspaceException when there is no workspace there (says how to
   *     make one)
   * @throws dev.legio.config.ConfigException when its {@code legio.toml} is wrong (names the key)
   */
  public static Legio open(Path workspace) {
    return open(workspace, System.getenv(), Clock.systemUTC());
  }

  /** As {@link #open(Path)}, with the environment and clock given (tests). */
  public static Legio open(Path workspace, Map<String, String> env, Clock clock) {
    Objects.requireNonNull(workspace, "workspace");
    return new Legio(
        LegioApp.open(new Workspace(workspace), env, clock, LegioApp.Lifetime.LONG_RUNNING));
  }

  /** Task sessions keyed by a session key and an agent. */
  public Tasks tasks() {
    return tasks;
  }

  @Override
  public void close() {
    app.close();
  }
}
