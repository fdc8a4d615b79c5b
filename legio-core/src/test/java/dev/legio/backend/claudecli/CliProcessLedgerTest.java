package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliProcessLedgerTest {
  @TempDir Path dir;

  private final List<ProcessHandle> started = new java.util.ArrayList<>();

  @AfterEach
  void stopWhatWasStarted() {
    started.forEach(ProcessRegistry::killTree);
  }

  @Test
  void theCliProcessesOfALegioKilledWithoutItsShutdownHookAreStoppedByTheNext() throws Exception {
    Path ledger = dir.resolve("ledger");
    // A Legio (another JVM) starts a CLI process through its registry, and is killed -9.
    LegioWithACli other = LegioWithACli.start(StartsACliAndWaits.class, ledger.toString());
    Process legio = other.legio();
    started.add(legio.toHandle());
    ProcessHandle orphan = other.cli();
    started.add(orphan);
    legio.destroyForcibly();
    assertThat(legio.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(orphan.isAlive()).as("kill -9 leaves the CLI running").isTrue();
    assertThat(Files.list(ledger)).hasSize(1);

    // The next Legio's CLI back-end stops it before it starts any of its own.
    assertThat(CliProcessLedger.in(ledger).stopOrphans()).isEqualTo(1);
    assertThat(orphan.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
    assertThat(Files.list(ledger)).isEmpty();
    assertThat(CliProcessLedger.in(ledger).stopOrphans()).isZero();
  }

  @Test
  void aLiveLegiosProcessesAreLeftAloneAndCrossedOutWhenTheyEnd() throws Exception {
    Path ledger = dir.resolve("ledger");
    try (ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.in(ledger))) {
      CliProcess sleeping =
          CliProcess.start(List.of("sleep", "300"), dir, Map.of(), Set.of(), registry, "sleep");
      ProcessHandle child = ProcessHandle.of(sleeping.pid()).orElseThrow();
      started.add(child);
      assertThat(Files.list(ledger)).hasSize(1);

      // Another Legio on the machine (legio say beside legio serve) finds this one alive.
      assertThat(CliProcessLedger.in(ledger).stopOrphans()).isZero();
      assertThat(child.isAlive()).isTrue();

      sleeping.kill();
      child.onExit().get(10, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (Files.list(ledger).findAny().isPresent() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(Files.list(ledger)).as("crossed out when it ended").isEmpty();
    }
  }

  @Test
  void aPidTakenSinceByAnotherProgramIsNeverSignalled() throws Exception {
    Path ledger = dir.resolve("ledger");
    Files.createDirectories(ledger);
    Files.setPosixFilePermissions(ledger, PosixFilePermissions.fromString("rwx------"));
    Process bystander = new ProcessBuilder("sleep", "300").start();
    started.add(bystander.toHandle());
    long gone = goneProcess();
    // Written down by a Legio that is gone, for a child whose pid the bystander has now.
    Files.writeString(
        ledger.resolve(gone + "-" + bystander.pid()),
        "2026-01-01T00:00:00Z\n2026-01-01T00:00:01Z\n",
        StandardCharsets.US_ASCII);
    Files.writeString(ledger.resolve(gone + "-1"), "half a line");

    assertThat(CliProcessLedger.in(ledger).stopOrphans()).isZero();
    assertThat(bystander.isAlive()).isTrue();
    assertThat(Files.list(ledger)).as("both settled").isEmpty();
  }

  @Test
  void aLedgerFolderOthersMayWriteIntoIsNotRead() throws Exception {
    Path ledger = dir.resolve("ledger");
    Files.createDirectories(ledger);
    Files.setPosixFilePermissions(ledger, PosixFilePermissions.fromString("rwxrwxrwx"));
    Process victim = new ProcessBuilder("sleep", "300").start();
    started.add(victim.toHandle());
    Files.writeString(
        ledger.resolve(goneProcess() + "-" + victim.pid()),
        "2026-01-01T00:00:00Z\n" + victim.info().startInstant().orElseThrow() + "\n",
        StandardCharsets.US_ASCII);

    assertThat(CliProcessLedger.in(ledger).stopOrphans()).isZero();
    assertThat(victim.isAlive()).isTrue();
  }

  /** The pid of a process that has ended. */
  private static long goneProcess() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }

  /** A Legio that starts one CLI process (a sleep), says its pid, and waits to be killed. */
  public static final class StartsACliAndWaits {
    public static void main(String[] args) throws Exception {
      ProcessRegistry registry = new ProcessRegistry(CliProcessLedger.in(Path.of(args[0])));
      CliProcess cli =
          CliProcess.start(
              List.of("sleep", "300"), Path.of("."), Map.of(), Set.of(), registry, "sleep");
      System.out.println("cli=" + cli.pid());
      System.out.flush();
      Thread.sleep(300_000);
    }
  }
}
