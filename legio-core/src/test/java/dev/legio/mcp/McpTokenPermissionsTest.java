package dev.legio.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A token file other users may read is refused, naming the file and the fix. */
class McpTokenPermissionsTest {
  @TempDir Path castra;

  @Test
  void aTokenFileOpenToGroupOrOthersIsRefused() throws Exception {
    McpTokens tokens = new McpTokens(castra);
    String token = tokens.tokenFor("vorenus");
    assertThat(tokens.callerOf(token)).contains("vorenus");

    Path file = tokens.folder().resolve("vorenus");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    assertThat(tokens.callerOf(token)).isEmpty();
    assertThatThrownBy(() -> tokens.tokenFor("vorenus"))
        .isInstanceOf(McpTokens.TokenFileException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("chmod 600");

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(tokens.callerOf(token)).contains("vorenus");
    assertThat(tokens.tokenFor("vorenus")).isEqualTo(token);
  }
}
