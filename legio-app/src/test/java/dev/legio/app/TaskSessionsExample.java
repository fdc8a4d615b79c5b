package dev.legio.app;

import dev.legio.task.TaskResult;
import dev.legio.task.TaskSessionSummary;
import java.nio.file.Path;

/**
 * The README's example of task sessions from Java ("Task sessions"): the lines between the two
 * marker comments are quoted there verbatim, which {@code ReadmeTaskExampleTest} checks before it
 * runs this.
 */
final class TaskSessionsExample {
  private TaskSessionsExample() {}

  /** Runs the example on the workspace {@code castra} (what {@code legio init castra} made). */
  static void run(Path castra) {
    // README example begins
    try (Legio legio = Legio.open(castra)) {
      TaskResult draft =
          legio.tasks().run("campaign:7f3c", "copywriter", "Write the spring tagline.", "run-41");
      TaskResult shorter =
          legio.tasks().run("campaign:7f3c", "copywriter", "Make it shorter.", "run-42");
      System.out.println(shorter.reply());
      System.out.println("same session: " + shorter.sessionId().equals(draft.sessionId()));
      System.out.println("resumed: " + shorter.resumed() + ", cost: " + shorter.usage().costUsd());
      for (TaskSessionSummary s : legio.tasks().sessions("campaign:7f3c")) {
        System.out.println(s.agent() + ": " + s.totals().total().turns() + " turns");
      }
    }
    // README example ends
  }
}
