package dev.legio.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command lines of a process's descendants, as Linux has them ({@code /proc}), for tests. */
public final class ProcessCommandLines {
  private ProcessCommandLines() {}

  /** Each live descendant's command line, its arguments joined by spaces. */
  public static List<String> ofDescendants(ProcessHandle process) {
    List<String> lines = new ArrayList<>();
    process
        .descendants()
        .forEach(
            p -> {
              try {
                byte[] cmdline = Files.readAllBytes(Path.of("/proc", "" + p.pid(), "cmdline"));
                lines.add(new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' '));
              } catch (IOException e) {
                // ended meanwhile
              }
            });
    return lines;
  }
}
