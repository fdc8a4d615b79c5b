package dev.legio.app.process;

import dev.legio.app.cli.Main;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One {@code legio} command run as a real child process, as an operator runs it: its own JVM, the
 * production class path (this build's classes and runtime dependencies, without the test classes
 * and their logging configuration), its own environment, standard output and error captured to
 * files, and real signals ({@link #signal}).
 */
public final class LegioProcess implements AutoCloseable {
  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private LegioProcess(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code legio args} with exactly {@code env} (plus PATH and HOME) in {@code dir}. */
  public static LegioProcess start(Path dir, Map<String, String> env, String... args) {
    return start(dir, env, null, args);
  }

  /** As {@link #start(Path, Map, String...)}, its standard input read from {@code input}. */
  public static LegioProcess start(Path dir, Map<String, String> env, Path input, String... args) {
    try {
      Path out = Files.createTempFile(dir, "legio-", ".out");
      Path err = Files.createTempFile(dir, "legio-", ".err");
      List<String> command = new ArrayList<>(javaCommand());
      command.addAll(List.of(args));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      if (input != null) {
        builder.redirectInput(input.toFile());
      }
      Map<String, String> childEnv = builder.environment();
      String path = childEnv.get("PATH");
      String home = childEnv.get("HOME");
      childEnv.clear();
      if (path != null) {
        childEnv.put("PATH", path);
      }
      if (home != null) {
        childEnv.put("HOME", home);
      }
      childEnv.putAll(env);
      return new LegioProcess(builder.start(), out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code legio args} to its end (at most {@code limit}) and returns it. */
  public static LegioProcess run(
      Path dir, Map<String, String> env, Duration limit, String... args) {
    LegioProcess p = start(dir, env, args);
    p.awaitExit(limit);
    return p;
  }

  /** java, the production class path and the main class of {@code legio}. */
  static List<String> javaCommand() {
    String java = ProcessHandle.current().info().command().orElse("java");
    String classPath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.endsWith("test-classes") && !entry.endsWith("-tests.jar"))
            .map(entry -> Path.of(entry).toAbsolutePath().toString())
            .collect(Collectors.joining(File.pathSeparator));
    return List.of(
        java,
        "--enable-native-access=ALL-UNNAMED",
        "-XX:TieredStopAtLevel=1",
        "-Xshare:auto",
        "-cp",
        classPath,
        Main.class.getName());
  }

  public long pid() {
    return process.pid();
  }

  /** Sends {@code signal} ("TERM", "INT", "KILL") to the process. */
  public void signal(String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
      kill.waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits for the exit and returns its code; fails when it takes longer than {@code limit}. */
  public int awaitExit(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "legio did not exit within " + limit + "; stderr so far:\n" + stderr());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits up to {@code limit} for {@code condition}, failing when this process ends first (with its
   * standard error) or the time runs out (naming {@code what}).
   */
  public void await(String what, Duration limit, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (!isAlive()) {
        throw new AssertionError("legio ended before " + what + ": " + stderr());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " not within " + limit);
      }
      Thread.sleep(50);
    }
  }

  /** The URL a {@code legio serve} prints once it serves, waiting up to {@code limit} for it. */
  public java.net.URI servingUrl(Duration limit) throws InterruptedException {
    java.util.regex.Pattern serving =
        java.util.regex.Pattern.compile("Legio is serving .* at (http://\\S+): store");
    String[] url = new String[1];
    await(
        "serving",
        limit,
        () -> {
          java.util.regex.Matcher m = serving.matcher(stdout());
          if (m.find()) {
            url[0] = m.group(1);
          }
          return url[0] != null;
        });
    return java.net.URI.create(url[0]);
  }

  /** POSTs the JSON {@code body} to {@code url} with the header pairs {@code headers}. */
  public static java.net.http.HttpResponse<String> postJson(
      java.net.URI url, String body, String... headers) throws IOException, InterruptedException {
    java.net.http.HttpRequest.Builder request =
        java.net.http.HttpRequest.newBuilder(url)
            .header("Content-Type", "application/json")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
    if (headers.length > 0) {
      request.headers(headers);
    }
    try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
      return http.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }
  }

  public int exitCode() {
    return process.exitValue();
  }

  public String stdout() {
    return read(stdout);
  }

  public String stderr() {
    return read(stderr);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
