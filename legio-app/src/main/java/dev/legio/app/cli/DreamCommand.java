package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.longterm.ConsolidationListener;
import dev.legio.longterm.ConsolidationPhase;
import dev.legio.longterm.ConsolidationResult;
import dev.legio.longterm.ConsolidationRunner;
import dev.legio.session.KnownNames;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code legio memory dream}: consolidates the agents' long-term memory ({@link
 * ConsolidationRunner}).
 */
@Command(
    name = "dream",
    mixinStandardHelpOptions = true,
    description = {
      "Consolidate agents' long-term memory ([memory] dir): move the facts extracted into"
          + " MEMORY.md into topic files (by the agent's model when its back-end can answer, else"
          + " one file per category), make relative dates absolute, and rewrite MEMORY.md as the"
          + " index.",
      "Runs for an agent only when dream_min_hours have passed since its last run,"
          + " dream_min_sessions of its sessions changed since, and no other run holds its lock.",
      "Exit status: 1 when an agent's run failed; else 2 when a file of an agent's memory"
          + " folder must be fixed first (a MEMORY.md that is a link, a folder or not UTF-8)."
    })
final class DreamCommand implements Callable<Integer> {
  @ParentCommand MemoryCommand memory;

  @Option(
      names = "--force",
      description = "Skip the time and sessions gates (never another run's live lock).")
  boolean force;

  @Option(
      names = "--agent",
      paramLabel = "NAME",
      description = "Only this agent (default: the legatus and every centurio).")
  String agent;

  @Override
  public Integer call() {
    PrintWriter out = memory.root.out;
    PrintWriter err = memory.root.err;
    try (LegioApp app = memory.root.app()) {
      List<String> agents = agents(app);
      ConsolidationRunner runner = app.consolidation();
      boolean failed = false;
      boolean refused = false;
      for (String name : agents) {
        ConsolidationResult result;
        try (Progress progress = Progress.of(name, out)) {
          result = runner.run(name, force, progress);
        }
        switch (result) {
          case ConsolidationResult.Completed c -> out.println(summary(c));
          case ConsolidationResult.Skipped s ->
              out.println(
                  name
                      + ": not consolidated: "
                      + s.reason()
                      + (s.gate() == dev.legio.longterm.ConsolidationGate.LOCK
                          ? ""
                          : " (--force skips this gate)"));
          case ConsolidationResult.Refused r -> {
            refused = true; // the operator's to fix: one line saying how, no log file to read
            err.println("legio: " + name + ": not consolidated: " + r.reason());
          }
          case ConsolidationResult.Failed f -> {
            failed = true;
            err.println("legio: " + name + ": " + f.message() + LegioCommand.detailsNote());
          }
        }
        result.warnings().forEach(w -> out.println("  note: " + w));
      }
      out.flush();
      return failed ? LegioCommand.FAILURE : refused ? LegioCommand.USAGE : 0;
    }
  }

  private List<String> agents(LegioApp app) {
    List<String> all = new ArrayList<>(app.agents().names());
    if (agent == null) {
      return all;
    }
    if (!all.contains(agent)) {
      throw new IllegalArgumentException(new KnownNames(Set.copyOf(all)).noAgentNamed(agent));
    }
    return List.of(agent);
  }

  private static String summary(ConsolidationResult.Completed c) {
    StringBuilder line = new StringBuilder(c.agent()).append(": consolidated ");
    line.append(c.factsConsolidated())
        .append(c.factsConsolidated() == 1 ? " fact" : " facts")
        .append(", ")
        .append(c.sessionsGathered())
        .append(c.sessionsGathered() == 1 ? " session" : " sessions")
        .append(c.byModel() ? " read by the model" : " changed (deterministically)")
        .append("; ");
    line.append(
        c.filesWritten().isEmpty()
            ? "no file changed"
            : "wrote " + String.join(", ", c.filesWritten()));
    if (!c.filesRemoved().isEmpty()) {
      line.append("; removed ").append(String.join(", ", c.filesRemoved()));
    }
    return line.append(
            c.indexLines() == 0
                ? "; no MEMORY.md (nothing to index)."
                : "; MEMORY.md " + c.indexLines() + (c.indexLines() == 1 ? " line." : " lines."))
        .toString();
  }

  /**
   * The phases of one agent's consolidation as they pass: a progress bar on the terminal (on
   * standard error, like {@code legio log import}'s), else one plain line per phase.
   */
  abstract static class Progress implements ConsolidationListener, AutoCloseable {
    static Progress of(String agent, PrintWriter out) {
      return Terminal.attached() ? new Bar(agent) : new Lines(out);
    }

    @Override
    public void close() {}

    static final class Lines extends Progress {
      private final PrintWriter out;

      Lines(PrintWriter out) {
        this.out = out;
      }

      @Override
      public void phaseFinished(String agent, ConsolidationPhase phase, String detail) {
        out.println(agent + ": " + phase.label() + ": " + detail);
        out.flush();
      }
    }

    static final class Bar extends Progress {
      private final ProgressBar bar;

      Bar(String agent) {
        bar =
            new ProgressBarBuilder()
                .setTaskName(agent)
                .setInitialMax(ConsolidationPhase.values().length)
                .setUnit(" phases", 1)
                .hideEta()
                .setConsumer(new ConsoleProgressBarConsumer(System.err))
                .build();
      }

      @Override
      public void phaseStarted(String agent, ConsolidationPhase phase) {
        bar.setExtraMessage(phase.label());
      }

      @Override
      public void phaseFinished(String agent, ConsolidationPhase phase, String detail) {
        bar.setExtraMessage(phase.label() + ": " + detail);
        bar.step();
      }

      @Override
      public void close() {
        bar.close();
      }
    }
  }
}
