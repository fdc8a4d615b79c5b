package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliProcessTest {
  @TempDir Path dir;

  @Test
  void theProcessGetsLegiosEnvironmentLessWhatIsWithheldPlusWhatIsAdded() throws Exception {
    assertThat(System.getenv("PATH")).as("this test withholds a variable the JVM has").isNotNull();
    List<String> seen = new ArrayList<>();
    try (ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.NONE);
        CliProcess process =
            CliProcess.start(
                List.of("/usr/bin/env"),
                dir,
                Map.of("DISABLE_AUTOUPDATER", "1"),
                Set.of("PATH"),
                registry,
                "env")) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (true) {
        Optional<CliProcess.Line> line = process.next(deadline);
        if (line.isEmpty() || !(line.get() instanceof CliProcess.Line.Out out)) {
          break;
        }
        seen.add(out.text());
      }
    }
    assertThat(seen).contains("DISABLE_AUTOUPDATER=1").noneMatch(l -> l.startsWith("PATH="));
    if (System.getenv("HOME") != null) {
      assertThat(seen).contains("HOME=" + System.getenv("HOME")); // the rest is passed on
    }
  }

  /**
   * A turn runs on a virtual thread and waits for its CLI's next line until the turn's deadline.
   * Other CLI processes sitting silent (idle persistent sessions), more than the virtual-thread
   * scheduler has carriers, must not keep that wait from ending at its deadline. In a running Legio
   * the JDK adds spare carriers for blocked ones but retires them after 30 s idle; here a child JVM
   * whose scheduler may add none ({@code jdk.virtualThreadScheduler.maxPoolSize} equal to its
   * parallelism) is in that state from the start, so the test need not wait out the 30 s. Without
   * the rule in {@link CliProcess}'s comment the silent pipes hold every carrier and the wait never
   * ends (no process writes a line): the child does not answer within the test's bound.
   */
  @Test
  void aWaitForTheNextLineEndsAtItsDeadlineWhileOtherCliProcessesSitSilent() throws Exception {
    Process child =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-Djdk.virtualThreadScheduler.parallelism=" + SilentPipes.CARRIERS,
                "-Djdk.virtualThreadScheduler.maxPoolSize=" + SilentPipes.CARRIERS,
                "-cp",
                System.getProperty("java.class.path"),
                SilentPipes.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    try {
      assertThat(child.waitFor(90, TimeUnit.SECONDS))
          .as("the child's wait ended by its %s deadline, not never", SilentPipes.DEADLINE)
          .isTrue();
      assertThat(output.get(30, TimeUnit.SECONDS)).contains("next line: Optional.empty");
      assertThat(child.exitValue()).isZero();
    } finally {
      child.descendants().forEach(ProcessHandle::destroyForcibly); // the silent processes
      child.destroyForcibly();
    }
  }

  /**
   * The child JVM: starts more silent processes than its scheduler has carriers, waits for the
   * first one's next line on a virtual thread with a deadline {@link #DEADLINE} away, prints what
   * it got, and ends.
   */
  static final class SilentPipes {
    static final int CARRIERS = 2;
    static final Duration DEADLINE = Duration.ofSeconds(2);

    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      List<CliProcess> processes = new ArrayList<>();
      try (ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.NONE)) {
        try {
          for (int i = 0; i <= CARRIERS + 1; i++) {
            processes.add(
                CliProcess.start(
                    List.of("sleep", "600"), dir, Map.of(), Set.of(), registry, "silent-" + i));
          }
          CliProcess waited = processes.get(0);
          CompletableFuture<Optional<CliProcess.Line>> next = new CompletableFuture<>();
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      next.complete(waited.next(System.nanoTime() + DEADLINE.toNanos()));
                    } catch (Throwable t) {
                      next.completeExceptionally(t);
                    }
                  });
          System.out.println("next line: " + next.get());
        } finally {
          processes.forEach(CliProcess::kill);
        }
      }
      System.exit(0);
    }
  }
}
