package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./legio} launcher starts the JVM so that no program of its user can attach to it
 * ({@code -XX:+DisableAttachMechanism}, see {@link ProcessSecretsGuard}) unless {@code
 * LEGIO_ALLOW_JVM_ATTACH=1}: run with a JDK finder and a {@code java} that print what they get. It
 * runs copies of the jars, which a later launch replaces by a rename when a build changed them, so
 * that a build never rewrites a file a running {@code legio serve} has open.
 */
class LauncherTest {
  @TempDir Path dir;

  private List<String> javaArguments(Map<String, String> env) throws Exception {
    Files.copy(Path.of("..", "legio"), dir.resolve("legio"), StandardCopyOption.REPLACE_EXISTING);
    Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
    executable(jdk.resolve("java"), "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    executable(
        Files.createDirectories(dir.resolve("bin")).resolve("find-java"),
        "#!/bin/sh\necho '" + dir.resolve("jdk") + "'\n");
    for (String module : List.of("legio-core", "legio-app")) {
      Files.createDirectories(dir.resolve(module + "/src/main"));
      Files.writeString(dir.resolve(module + "/pom.xml"), "<project/>");
    }
    Files.writeString(dir.resolve("pom.xml"), "<project/>");
    Path jar = Files.createDirectories(dir.resolve("legio-app/target")).resolve("legio.jar");
    if (!Files.exists(jar)) {
      Files.writeString(jar, "not rebuilt: newer than the sources");
      jar.toFile().setLastModified(System.currentTimeMillis() + 60_000);
      Path core = Files.createDirectories(jar.resolveSibling("lib")).resolve("legio-core.jar");
      Files.writeString(core, "the engine, as built");
    }

    ProcessBuilder builder =
        new ProcessBuilder("bash", dir.resolve("legio").toString(), "status")
            .redirectErrorStream(true);
    builder.environment().remove("LEGIO_ALLOW_JVM_ATTACH");
    builder.environment().putAll(env);
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out.lines().toList();
  }

  private static void executable(Path file, String text) throws Exception {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void theJvmTakesNoAttach() throws Exception {
    assertThat(javaArguments(Map.of()))
        .contains("-XX:+DisableAttachMechanism")
        .endsWith("-jar", dir.resolve("legio-app/target/run/legio.jar").toString(), "status");
  }

  @Test
  void theJvmRunsCopiesThatABuildReplacesByRenameNeverInPlace() throws Exception {
    javaArguments(Map.of());
    Path built = dir.resolve("legio-app/target");
    Path run = built.resolve("run");
    assertThat(run.resolve("legio.jar")).hasSameTextualContentAs(built.resolve("legio.jar"));
    assertThat(run.resolve("lib/legio-core.jar"))
        .hasSameTextualContentAs(built.resolve("lib/legio-core.jar"));
    Object app = fileKey(run.resolve("legio.jar"));
    Object core = fileKey(run.resolve("lib/legio-core.jar"));

    // A launch with nothing rebuilt leaves the copies a running `legio serve` has open alone.
    javaArguments(Map.of());
    assertThat(fileKey(run.resolve("legio.jar"))).isEqualTo(app);
    assertThat(fileKey(run.resolve("lib/legio-core.jar"))).isEqualTo(core);

    // A build rewrites both jars in place; the next launch puts new copies in their place.
    Files.writeString(built.resolve("legio.jar"), "rebuilt after a git pull");
    built.resolve("legio.jar").toFile().setLastModified(System.currentTimeMillis() + 120_000);
    Files.writeString(built.resolve("lib/legio-core.jar"), "the engine, rebuilt");
    built
        .resolve("lib/legio-core.jar")
        .toFile()
        .setLastModified(System.currentTimeMillis() + 120_000);
    javaArguments(Map.of());

    assertThat(run.resolve("legio.jar")).hasContent("rebuilt after a git pull");
    assertThat(run.resolve("lib/legio-core.jar")).hasContent("the engine, rebuilt");
    assertThat(fileKey(run.resolve("legio.jar"))).isNotEqualTo(app);
    assertThat(fileKey(run.resolve("lib/legio-core.jar"))).isNotEqualTo(core);
    try (var files = Files.list(run.resolve("lib"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("legio-core.jar");
    }
  }

  private static Object fileKey(Path file) throws Exception {
    return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
  }

  @Test
  void unlessAttachIsAllowedForJcmd() throws Exception {
    assertThat(javaArguments(Map.of("LEGIO_ALLOW_JVM_ATTACH", "1")))
        .doesNotContain("-XX:+DisableAttachMechanism")
        .endsWith("status");
  }
}
