package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Another JVM standing for a Legio that started one CLI process through its registry: {@code main}
 * prints {@code cli=PID} once it has, then waits to be signalled.
 */
record LegioWithACli(Process legio, ProcessHandle cli) {
  static LegioWithACli start(Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElseThrow());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    Process legio = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(legio.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      while (line != null && !line.startsWith("cli=")) {
        line = out.readLine();
      }
      assertThat(line).as("the other JVM started its CLI").isNotNull();
      return new LegioWithACli(
          legio, ProcessHandle.of(Long.parseLong(line.substring(4))).orElseThrow());
    }
  }
}
