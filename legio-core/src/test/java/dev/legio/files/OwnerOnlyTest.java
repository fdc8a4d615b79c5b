package dev.legio.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerOnlyTest {
  @TempDir Path dir;

  @BeforeEach
  void posix() {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
  }

  private static String permissions(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void whatItCreatesOnlyItsOwnerMayReadEveryMissingFolderIncluded() throws Exception {
    Path folder = dir.resolve("a/b/c");
    OwnerOnly.createDirectories(folder);
    assertThat(permissions(dir.resolve("a"))).isEqualTo("rwx------");
    assertThat(permissions(dir.resolve("a/b"))).isEqualTo("rwx------");
    assertThat(permissions(folder)).isEqualTo("rwx------");

    Path file = folder.resolve("legio.log");
    OwnerOnly.createFileIfMissing(file);
    assertThat(permissions(file)).isEqualTo("rw-------");

    Path opened = folder.resolve("s.jsonl");
    try (FileChannel c =
        OwnerOnly.open(opened, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE))) {
      c.write(java.nio.ByteBuffer.wrap(new byte[] {'x'}));
    }
    assertThat(permissions(opened)).isEqualTo("rw-------");
  }

  @Test
  void whatExistsKeepsItsPermissionsAndItsContent() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("shared"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path file = Files.writeString(folder.resolve("legio.log"), "kept");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    OwnerOnly.createDirectories(folder);
    OwnerOnly.createFileIfMissing(file);
    try (FileChannel c =
        OwnerOnly.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ))) {
      assertThat(c.size()).isEqualTo(4);
    }

    assertThat(permissions(folder)).isEqualTo("rwxr-xr-x");
    assertThat(permissions(file)).isEqualTo("rw-r--r--");
    assertThat(Files.readString(file)).isEqualTo("kept");
  }
}
