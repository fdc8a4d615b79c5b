package dev.legio.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerWritableTest {
  @TempDir Path dir;

  @Test
  void aFileWhoseWriteFailsPartWayIsNotLeftCutShort() {
    Path file = dir.resolve("legio.toml");
    InputStream failsPartWay =
        new InputStream() {
          private int given;

          @Override
          public int read() throws IOException {
            if (given++ < 5000) {
              return 'x';
            }
            throw new IOException("No space left on device");
          }
        };

    assertThatThrownBy(() -> OwnerWritable.create(file, failsPartWay))
        .isInstanceOf(IOException.class)
        .hasMessage("No space left on device");

    assertThat(file).doesNotExist(); // the next `legio init` writes it whole, not "kept"
  }

  @Test
  void aFileWrittenWholeHoldsItsContent() throws Exception {
    Path file = dir.resolve("prompt.md");
    OwnerWritable.create(file, new ByteArrayInputStream("hello".getBytes()));
    assertThat(Files.readString(file)).isEqualTo("hello");
  }
}
