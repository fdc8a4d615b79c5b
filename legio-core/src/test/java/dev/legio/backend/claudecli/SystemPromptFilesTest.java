package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.RealClaudeCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SystemPromptFiles}: a system prompt reaches the Claude Code CLI in an owner-only file, not
 * on the command line that every local user may read; on real files, and with the real CLI.
 */
class SystemPromptFilesTest {
  @TempDir Path dir;

  @Test
  void aPromptIsWrittenOwnerOnlyInAFolderOfThisUsersAloneAndDeletedWhenDone() throws Exception {
    SystemPromptFiles prompts = new SystemPromptFiles(dir.resolve("prompts"));

    SystemPromptFiles.Written written = prompts.write("You are vorenus. ✓");

    assertThat(Files.readString(written.path(), StandardCharsets.UTF_8))
        .isEqualTo("You are vorenus. ✓");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written.path())))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(prompts.folder())))
        .isEqualTo("rwx------");
    written.delete();
    assertThat(written.path()).doesNotExist();
    SystemPromptFiles.Written kept = prompts.write("left until the back-end closes");
    prompts.close();
    assertThat(kept.path()).doesNotExist();
  }

  @Test
  void aFolderOthersMayWriteIntoIsRefusedSayingWhatToDo() throws Exception {
    Path shared = dir.resolve("shared");
    Files.createDirectories(shared);
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> new SystemPromptFiles(shared).write("secret memory"))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("not a folder of this user's alone")
        .hasMessageContaining("chmod 700");
    try (var files = Files.list(shared)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void theFilesOfALegioThatIsGoneAreDeletedAndALiveOnesKept() throws Exception {
    SystemPromptFiles prompts = new SystemPromptFiles(dir.resolve("prompts"));
    SystemPromptFiles.Written mine = prompts.write("this process's");
    // A Legio killed with -9: its pid no longer runs with the start instant in the name.
    Path orphan = prompts.folder().resolve("999999999-1700000000000-0f0e");
    Files.writeString(orphan, "a dead Legio's prompt");

    assertThat(new SystemPromptFiles(prompts.folder()).deleteOrphans()).isOne();

    assertThat(orphan).doesNotExist();
    assertThat(mine.path()).exists();
  }

  @Test
  void theRealCliReadsAPromptTooLongForACommandLineFromItsFileWhichGoesWithTheProcess(
      @TempDir Path home, @TempDir Path work) throws Exception {
    RealClaudeCli.executable();
    // Over Linux's 128 KiB limit for one argument: on the command line, the CLI could not start
    // ("Argument list too long"). What the command line holds is ClaudeCliArgsTest's.
    String prompt = "You are vorenus.\n" + "remember the ford. ".repeat(8_000) + "VAULT-4711";
    try (FakeMessagesApi api = FakeMessagesApi.start();
        ClaudeCliBackend backend =
            new ClaudeCliBackend(
                RealClaudeCli.options(home, work, api, Mode.PERSISTENT)
                    .withTurnTimeout(Duration.ofSeconds(60)),
                CliProcessLedger.in(dir.resolve("ledger")))) {
      api.enqueue(Reply.text("Aye."));
      Path prompts = dir.resolve("ledger-prompts");
      try (BackendSession session =
          backend.open(new SessionSpec("vorenus", prompt, null, SessionSpec.OPERATOR_ROLE, null))) {
        assertThat(session.send("report", e -> {}).text()).isEqualTo("Aye.");

        assertThat(api.requests().stream().filter(FakeMessagesApi.Request::isMessages))
            .anySatisfy(
                r ->
                    assertThat(r.systemText()).contains("You are vorenus.").contains("VAULT-4711"));
        try (var files = Files.list(prompts)) {
          assertThat(files).as("the live process's prompt file").hasSize(1);
        }
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (true) {
        try (var files = Files.list(prompts)) {
          if (files.findAny().isEmpty()) {
            break;
          }
        }
        assertThat(System.nanoTime()).as("deleted once the process ended").isLessThan(deadline);
        Thread.sleep(20);
      }
    }
  }
}
