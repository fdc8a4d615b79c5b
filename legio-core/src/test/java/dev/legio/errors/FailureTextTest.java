package dev.legio.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class FailureTextTest {
  @Test
  void aFileProblemSaysWhatHappenedToWhichFile() {
    assertThat(FailureText.of(new NoSuchFileException("/tmp/x.jsonl")))
        .isEqualTo("/tmp/x.jsonl does not exist");
    assertThat(FailureText.of(new UncheckedIOException(new AccessDeniedException("/root/f"))))
        .isEqualTo("/root/f cannot be accessed (permission denied)");
    assertThat(FailureText.of(new FileSystemException("/ro/f", null, "Read-only file system")))
        .isEqualTo("/ro/f: Read-only file system");
  }

  @Test
  void aMessageEndingInItsCausesBarePathGetsTheSentence() {
    RuntimeException wrapped =
        new IllegalStateException(
            "cannot write in /proc/nope/edicta: /proc/nope", new NoSuchFileException("/proc/nope"));
    assertThat(FailureText.of(wrapped))
        .isEqualTo("cannot write in /proc/nope/edicta: /proc/nope does not exist");
  }

  @Test
  void otherMessagesAreShownAsTheyAreAndOnlyAMessagelessFailureIsNamedByClass() {
    assertThat(FailureText.of(new IllegalStateException("the store is closed")))
        .isEqualTo("the store is closed");
    assertThat(FailureText.of(new RuntimeException("reading failed", new IOException("disk"))))
        .isEqualTo("reading failed");
    assertThat(FailureText.of(new NullPointerException()))
        .isEqualTo("an unexpected NullPointerException");
  }
}
