package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio init} and a first command run under umask 000, as a shared account or a container
 * may have it: nothing Legio creates may be writable by the group or others.
 */
class PermissiveUmaskProcessTest {
  @TempDir Path dir;

  private int underUmask000(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("sh", "-c", "umask 000 && exec \"$@\"", "sh"));
    command.addAll(LegioProcess.javaCommand());
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  @Test
  void nothingInitOrACommandCreatesIsWritableByOthers() throws Exception {
    assertThat(underUmask000("init", "legion"))
        .as(Files.readString(dir.resolve("out.txt")))
        .isZero();
    Path ws = dir.resolve("legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    assertThat(underUmask000("--castra", ws.toString(), "say", "-q", "@vorenus hold the bridge"))
        .as(Files.readString(dir.resolve("out.txt")))
        .isZero();

    List<String> writableByOthers = new ArrayList<>();
    try (Stream<Path> all = Files.walk(ws)) {
      for (Path p : all.toList()) {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        if (mode.charAt(4) == 'w' || mode.charAt(7) == 'w') {
          writableByOthers.add(mode + " " + ws.relativize(p));
        }
      }
    }
    assertThat(writableByOthers).isEmpty();
    assertThat(mode(ws.resolve("legio.toml"))).isEqualTo("rw-r--r--");
    assertThat(mode(ws.resolve("castra/edicta"))).isEqualTo("rwxr-xr-x");
    assertThat(mode(ws.resolve("castra/legatus/prompt.md"))).isEqualTo("rw-r--r--");
  }

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
