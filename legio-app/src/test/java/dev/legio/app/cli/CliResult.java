package dev.legio.app.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** What one run of the {@code legio} command in this JVM returned and printed. */
record CliResult(int code, String out, String err) {
  /**
   * Runs {@code legio ARGS} as a user would, in {@code dir}, with {@code env}, on {@code clock}.
   */
  static CliResult run(Map<String, String> env, Path dir, Clock clock, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            args,
            new LegioCommand.Context(env, dir, clock),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    return new CliResult(code, out.toString(), err.toString());
  }
}
