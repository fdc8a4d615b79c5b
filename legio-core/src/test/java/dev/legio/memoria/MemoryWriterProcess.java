package dev.legio.memoria;

import dev.legio.agents.AgentDirectory;
import java.nio.file.Path;
import java.time.Clock;

/** A child process for {@code MemoriaTest}: publishes N notes to one actum as one agent. */
public final class MemoryWriterProcess {
  private MemoryWriterProcess() {}

  public static void main(String[] args) {
    Path castra = Path.of(args[0]);
    Memoria memoria = new Memoria(castra, new AgentDirectory(castra), Clock.systemUTC());
    int n = Integer.parseInt(args[2]);
    for (int i = 0; i < n; i++) {
      memoria.forAgent(args[1]).publishActum("tally", args[1] + " note " + i);
    }
  }
}
