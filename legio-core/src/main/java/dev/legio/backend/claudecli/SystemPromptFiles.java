package dev.legio.backend.claudecli;

import dev.legio.backend.BackendException;
import dev.legio.files.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a system prompt reaches a Claude Code CLI process: in a file the process reads as it starts
 * ({@code --system-prompt-file}), never on its command line.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every local user may read any process's command line ({@code ps}, {@code
 *       /proc/PID/cmdline}), and Linux refuses a single argument over 128 KiB; a system prompt
 *       holds the agent's long-term memory ({@code MEMORY.md}, kept owner-only) and may be longer.
 *   <li>The file is written owner-only ({@code rw-------}) before the process starts, in a folder
 *       of this user's alone ({@code rwx------}, checked as the process ledger's is: {@code
 *       $XDG_RUNTIME_DIR/legio/claude-cli-prompts}, else {@code legio-USER/claude-cli-prompts} in
 *       the temporary folder); it is deleted when its process ends, at once when the process could
 *       not start, and at the latest when the back-end closes.
 *   <li>A file is named {@code LEGIOPID-STARTMILLIS-UUID}: the files of a Legio process that is
 *       gone (killed, so nothing deleted them) are deleted by the next CLI back-end that starts; a
 *       live Legio's are left alone.
 *   <li>A folder that is not this user's alone fails the turn, saying what to do: the prompt is
 *       never put back on the command line.
 * </ul>
 */
final class SystemPromptFiles implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SystemPromptFiles.class);

  /** A prompt written for one process; {@link #delete} once the process is done with it. */
  interface Written {
    Path path();

    void delete();
  }

  private final Path folder;
  private final ProcessHandle self = ProcessHandle.current();
  private final Set<Path> live = ConcurrentHashMap.newKeySet();

  SystemPromptFiles(Path folder) {
    this.folder = folder;
  }

  /** The files beside {@code ledger}'s folder (the machine's, or a test's). */
  static SystemPromptFiles besides(CliProcessLedger ledger) {
    Path ledgerFolder = ledger.folder();
    if (ledgerFolder == null) {
      ledgerFolder = CliProcessLedger.standard().folder();
    }
    return new SystemPromptFiles(
        ledgerFolder.resolveSibling(ledgerFolder.getFileName() + "-prompts"));
  }

  Path folder() {
    return folder;
  }

  /**
   * Writes {@code prompt} to a new owner-only file.
   *
   * @throws BackendException when the folder is not this user's alone, or cannot be written
   */
  Written write(String prompt) {
    Path file;
    try {
      OwnerOnly.createDirectories(folder);
      requireOwnFolder();
      long started = self.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
      file = folder.resolve(self.pid() + "-" + started + "-" + UUID.randomUUID());
      try (FileChannel out =
          OwnerOnly.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
        ByteBuffer bytes = ByteBuffer.wrap(prompt.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      }
    } catch (IOException e) {
      throw new BackendException(
          "could not write the system prompt for the Claude Code CLI into "
              + folder
              + ": "
              + e.getMessage()
              + " (the folder must be writable and this user's alone)",
          e);
    }
    live.add(file);
    Path written = file;
    return new Written() {
      @Override
      public Path path() {
        return written;
      }

      @Override
      public void delete() {
        remove(written);
      }
    };
  }

  private void remove(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException | RuntimeException e) {
      log.warn("could not delete the Claude Code CLI's system prompt file {}: {}", file, e);
    }
    live.remove(file);
  }

  private void requireOwnFolder() {
    if (!OwnerOnly.isOwnFolder(folder)) {
      throw new BackendException(
          folder
              + " is not a folder of this user's alone (rwx------), so the agents' system prompts"
              + " are not written there: remove it, or make it yours with chmod 700");
    }
  }

  /** Deletes the files of Legio processes that are gone; returns how many. */
  int deleteOrphans() {
    if (!OwnerOnly.isOwnFolder(folder)) {
      return 0; // none yet, or not read: another user could name files there
    }
    int deleted = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "[0-9]*-[0-9]*-*")) {
      for (Path file : files) {
        if (!ownerRuns(file.getFileName().toString())) {
          Files.deleteIfExists(file);
          deleted++;
        }
      }
    } catch (IOException | RuntimeException e) {
      log.warn(
          "could not clear the Claude Code CLI's old system prompt files in {}: {}", folder, e);
    }
    if (deleted > 0) {
      log.info("deleted {} system prompt file(s) a Legio process that was killed left", deleted);
    }
    return deleted;
  }

  private static boolean ownerRuns(String name) {
    String[] parts = name.split("-", 3);
    try {
      return CliProcessLedger.running(
          Long.parseLong(parts[0]), Instant.ofEpochMilli(Long.parseLong(parts[1])));
    } catch (RuntimeException malformed) {
      return false;
    }
  }

  /** Deletes every file this back-end wrote that is still there. */
  @Override
  public void close() {
    for (Path file : Set.copyOf(live)) {
      remove(file);
    }
  }
}
