package dev.legio.longterm;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * A process that appends facts to an agent's {@code MEMORY.md} one by one (for {@link
 * ConsolidationConcurrentAppendTest}): arguments memory dir, agent, first number, count; fact
 * {@code n} is {@link ConsolidationConcurrentAppendTest#fact(int)}. Prints {@code ready} first and
 * {@code appended} at the end.
 */
public final class MemoryAppendProcess {
  private MemoryAppendProcess() {}

  public static void main(String[] args) {
    MemoryFolder folder = MemoryFolder.of(Path.of(args[0]), args[1]);
    int first = Integer.parseInt(args[2]);
    int count = Integer.parseInt(args[3]);
    System.out.println("ready");
    System.out.flush();
    for (int n = first; n < first + count; n++) {
      folder.append(LocalDate.of(2026, 11, 23), List.of(ConsolidationConcurrentAppendTest.fact(n)));
    }
    System.out.println("appended");
    System.out.flush();
  }
}
