package dev.legio.app.cli;

import dev.legio.app.RedactingOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** The {@code legio} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    dev.legio.app.ProcessSecretsGuard.atStart(System.getenv()); // before anything reads secrets
    // Standard error passes through SecretRedactor, whoever writes to it (the JVM included).
    System.setErr(
        new PrintStream(
            new RedactingOutputStream(new FileOutputStream(FileDescriptor.err)),
            true,
            System.err.charset()));
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int code = run(args, System.getenv(), Path.of("").toAbsolutePath(), out, err);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs one command line with the given surroundings (tests call this directly). */
  public static int run(
      String[] args, LegioCommand.Context context, PrintWriter out, PrintWriter err) {
    return LegioCommand.commandLine(context, out, err).execute(args);
  }

  /** Runs one command line and returns its exit code (tests call this directly). */
  public static int run(
      String[] args,
      Map<String, String> env,
      Path currentDirectory,
      PrintWriter out,
      PrintWriter err) {
    return LegioCommand.commandLine(
            new LegioCommand.Context(env, currentDirectory, Clock.systemUTC()), out, err)
        .execute(args);
  }
}
