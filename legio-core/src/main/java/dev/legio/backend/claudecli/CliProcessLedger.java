package dev.legio.backend.claudecli;

import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Claude Code CLI processes this Legio process started, written down in a folder, so that the
 * ones a Legio killed without its shutdown hook left running (kill -9, a crash, the OOM killer) are
 * stopped by the next Legio that starts the CLI back-end on this machine. An orphan would otherwise
 * go on with its turn, spending tokens and running tools, and write to the conversation that the
 * next Legio resumes.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>One file a child, named {@code LEGIOPID-CHILDPID}, holding the start instants of the Legio
 *       process and of the child; written (whole, by a rename) when the child starts, deleted when
 *       it ends or is stopped.
 *   <li>A file whose Legio process still runs (its pid alive with the start instant written down)
 *       is left alone: it is another Legio's, such as {@code legio say} beside {@code legio serve}.
 *   <li>A file whose Legio process is gone names an orphan: its child, when a process with its pid
 *       and start instant still runs, is stopped with its descendants; the file is deleted either
 *       way. A pid taken since by another program (another start instant) is never signalled.
 *   <li>The folder is the user's own ({@code rwx------}, checked): a folder another user could
 *       write into is not read, so no one can name a process for Legio to stop.
 *   <li>A ledger that cannot be written (a read-only or full disk) never stops a turn: it is said
 *       once in the log, and the children simply are not written down.
 * </ul>
 */
final class CliProcessLedger {
  private static final Logger log = LoggerFactory.getLogger(CliProcessLedger.class);

  /** A ledger that writes nothing down (tests that start no CLI). */
  static final CliProcessLedger NONE = new CliProcessLedger(null);

  private final Path folder;
  private final ProcessHandle self = ProcessHandle.current();
  private volatile boolean warned;

  private CliProcessLedger(Path folder) {
    this.folder = folder;
  }

  /**
   * The machine's ledger for this user: {@code $XDG_RUNTIME_DIR/legio/claude-cli} when the variable
   * names a folder, else {@code legio-USER/claude-cli} in the temporary folder. Both are emptied at
   * a reboot, which ends every process anyway.
   */
  static CliProcessLedger standard() {
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    Path base =
        runtime != null && !runtime.isBlank() && Files.isDirectory(Path.of(runtime))
            ? Path.of(runtime, "legio")
            : Path.of(
                System.getProperty("java.io.tmpdir"), "legio-" + System.getProperty("user.name"));
    return new CliProcessLedger(base.resolve("claude-cli"));
  }

  /** A ledger in {@code folder}. */
  static CliProcessLedger in(Path folder) {
    return new CliProcessLedger(folder);
  }

  /** Where the ledger is kept; null for {@link #NONE}. */
  Path folder() {
    return folder;
  }

  /** Writes {@code child} down as this process's. */
  void started(ProcessHandle child) {
    if (folder == null) {
      return;
    }
    Optional<Instant> selfStart = self.info().startInstant();
    Optional<Instant> childStart = child.info().startInstant();
    if (selfStart.isEmpty() || childStart.isEmpty()) {
      return; // this system does not say when processes started: nothing could be checked later
    }
    try {
      OwnerOnly.createDirectories(folder);
      if (!ownFolder()) {
        return;
      }
      Path file = fileOf(self.pid(), child.pid());
      Path partial = folder.resolve("." + file.getFileName() + ".partial");
      Files.writeString(
          partial, selfStart.get() + "\n" + childStart.get() + "\n", StandardCharsets.US_ASCII);
      Files.move(
          partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      unwritable(e);
    }
  }

  /** Crosses {@code child} out: it ended, or was stopped. */
  void ended(ProcessHandle child) {
    if (folder == null) {
      return;
    }
    try {
      Files.deleteIfExists(fileOf(self.pid(), child.pid()));
    } catch (IOException | RuntimeException e) {
      unwritable(e);
    }
  }

  /** Stops the children that Legio processes now gone left running; returns how many it stopped. */
  int stopOrphans() {
    if (folder == null || !Files.isDirectory(folder) || !ownFolder()) {
      return 0;
    }
    int stopped = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "[0-9]*-[0-9]*")) {
      for (Path file : files) {
        stopped += settle(file) ? 1 : 0;
      }
    } catch (IOException | RuntimeException e) {
      log.warn("could not read the Claude Code CLI processes written down in {}: {}", folder, e);
    }
    if (stopped > 0) {
      log.warn(
          "stopped {} Claude Code CLI process(es) that a Legio process which ended without"
              + " stopping them (killed, or crashed) had left running",
          stopped);
    }
    return stopped;
  }

  /** Settles one file: true when it named an orphan that was running and is now stopped. */
  private boolean settle(Path file) throws IOException {
    String[] pids = file.getFileName().toString().split("-");
    String[] starts;
    try {
      starts = Files.readString(file, StandardCharsets.US_ASCII).strip().split("\n");
    } catch (IOException e) {
      return false; // deleted meanwhile by its own Legio
    }
    long legioPid;
    long childPid;
    Instant legioStart;
    Instant childStart;
    try {
      legioPid = Long.parseLong(pids[0]);
      childPid = Long.parseLong(pids[1]);
      legioStart = Instant.parse(starts[0]);
      childStart = Instant.parse(starts[1]);
    } catch (RuntimeException malformed) {
      Files.deleteIfExists(file); // not one this ledger wrote whole
      return false;
    }
    if (running(legioPid, legioStart)) {
      return false; // its Legio runs: its own to stop
    }
    boolean orphan = running(childPid, childStart);
    if (orphan) {
      ProcessHandle.of(childPid).ifPresent(ProcessRegistry::killTree);
    }
    Files.deleteIfExists(file);
    return orphan;
  }

  /**
   * True when the process {@code pid} runs and started at {@code start} (to the millisecond): a pid
   * another program took since started at another instant.
   */
  static boolean running(long pid, Instant start) {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .flatMap(p -> p.info().startInstant())
        .map(i -> i.toEpochMilli() == start.toEpochMilli())
        .orElse(false);
  }

  /** True when the folder is this user's and no one else may write into it (said once if not). */
  private boolean ownFolder() {
    boolean own = OwnerOnly.isOwnFolder(folder);
    if (!own && !warned) {
      warned = true;
      log.warn(
          "{} is not a folder of this user's alone (rwx------): the Claude Code CLI processes"
              + " Legio starts are not written down there, and ones a killed Legio left running"
              + " are not stopped. Remove it, or make it yours with chmod 700.",
          folder);
    }
    return own;
  }

  private void unwritable(Exception e) {
    if (!warned) {
      warned = true;
      log.warn(
          "could not write down the Claude Code CLI processes in {} ({}): ones left running by a"
              + " Legio that is killed will not be stopped by the next",
          folder,
          e.toString());
    }
  }

  private Path fileOf(long legioPid, long childPid) {
    return folder.resolve(legioPid + "-" + childPid);
  }
}
