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
 * runs a snapshot of its build ({@code .legio-run/ID}) that later builds leave alone, so that a
 * build never rewrites a file a running {@code legio serve}, or a {@code legio mcp} it starts,
 * needs. The JVM's own log lines go to stderr, never into a command's output.
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
      Path lib = Files.createDirectories(jar.resolveSibling("lib"));
      Files.writeString(lib.resolve("legio-core.jar"), "the engine, as built");
      Files.writeString(lib.resolve("jackson-core.jar"), "a library");
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

  /** The build folder the last launch ran ({@code -jar FOLDER/legio.jar}). */
  private static Path ran(List<String> arguments) {
    return Path.of(arguments.get(arguments.indexOf("-jar") + 1)).getParent();
  }

  private List<String> runs() throws Exception {
    try (var files = Files.list(dir.resolve(".legio-run"))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Rewrites a built jar in place, as a build does, newer than the sources. */
  private void rebuild(String jar, String text, int minutesAhead) throws Exception {
    Path file = dir.resolve("legio-app/target").resolve(jar);
    Files.writeString(file, text);
    file.toFile().setLastModified(System.currentTimeMillis() + minutesAhead * 60_000L);
  }

  @Test
  void theJvmTakesNoAttach() throws Exception {
    List<String> arguments = javaArguments(Map.of());
    assertThat(arguments).contains("-XX:+DisableAttachMechanism").endsWith("status");
    assertThat(ran(arguments).getParent()).isEqualTo(dir.resolve(".legio-run"));
  }

  @Test
  void theJvmsOwnLogLinesGoToStderrNotIntoTheCommandsOutput() throws Exception {
    List<String> arguments = javaArguments(Map.of());
    List<String> jvmFlags = arguments.subList(0, arguments.indexOf("-jar"));

    // The real java with the launcher's flags, and an option from the environment that makes the
    // JVM log an error as it starts (written to stdout by default); --version prints to stdout.
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.add("--version");
    ProcessBuilder java = new ProcessBuilder(command);
    java.environment()
        .put("JAVA_TOOL_OPTIONS", "-XX:SharedArchiveFile=" + dir.resolve("no-such-archive.jsa"));
    Path err = dir.resolve("stderr.txt");
    java.redirectError(err.toFile());
    Process p = java.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();

    assertThat(out).doesNotContain("no-such-archive").contains(Runtime.version().toString());
    assertThat(Files.readString(err)).contains("no-such-archive.jsa");
  }

  @Test
  void theJvmRunsASnapshotOfItsBuildThatLaterBuildsLeaveAlone() throws Exception {
    Path built = dir.resolve("legio-app/target");
    Path first = ran(javaArguments(Map.of()));
    assertThat(first.resolve("legio.jar")).hasSameTextualContentAs(built.resolve("legio.jar"));
    assertThat(first.resolve("lib/legio-core.jar")).hasContent("the engine, as built");
    // The libraries are hard links: a snapshot costs Legio's own jars only.
    assertThat(fileKey(first.resolve("lib/jackson-core.jar")))
        .isEqualTo(fileKey(built.resolve("lib/jackson-core.jar")));
    Object app = fileKey(first.resolve("legio.jar"));

    // Nothing rebuilt: the same snapshot, untouched.
    assertThat(ran(javaArguments(Map.of()))).isEqualTo(first);
    assertThat(fileKey(first.resolve("legio.jar"))).isEqualTo(app);

    // A build rewrites both jars in place: the next launch runs a new snapshot, and the first one,
    // which a running `legio serve` and its `legio mcp` children use, stays as it was.
    rebuild("legio.jar", "rebuilt after a git pull", 2);
    rebuild("lib/legio-core.jar", "the engine, rebuilt", 2);
    Path second = ran(javaArguments(Map.of()));

    assertThat(second).isNotEqualTo(first);
    assertThat(second.resolve("legio.jar")).hasContent("rebuilt after a git pull");
    assertThat(second.resolve("lib/legio-core.jar")).hasContent("the engine, rebuilt");
    assertThat(first.resolve("legio.jar")).hasContent("not rebuilt: newer than the sources");
    assertThat(first.resolve("lib/legio-core.jar")).hasContent("the engine, as built");
    assertThat(fileKey(first.resolve("legio.jar"))).isEqualTo(app);
  }

  @Test
  void theFiveSnapshotsLastLaunchedAreKeptAndAnyARunningProcessStartedFrom() throws Exception {
    Path first = ran(javaArguments(Map.of()));
    rebuild("legio.jar", "build 1", 3);
    Path second = ran(javaArguments(Map.of()));
    // A process still running from the first snapshot, as a `legio serve` started before a build.
    Process serving =
        new ProcessBuilder("sh", "-c", "sleep 60", first.resolve("legio.jar").toString()).start();
    try {
      for (int build = 2; build <= 7; build++) {
        rebuild("legio.jar", "build " + build, 2 + build);
        javaArguments(Map.of());
      }
      assertThat(runs()).hasSize(6).contains(first.getFileName().toString());
      assertThat(second).doesNotExist();
    } finally {
      serving.destroyForcibly().waitFor();
    }
  }

  @Test
  void aSnapshotTakenWhileABuildWroteIsMadeAgainOnceTheJarsStayStill() throws Exception {
    // A cp that lets "the build" finish writing legio.jar while it copies, the first time only.
    Path bin = Files.createDirectories(dir.resolve("bin-with-slow-cp"));
    Path built = dir.resolve("legio-app/target/legio.jar");
    Path written = dir.resolve("written");
    executable(
        bin.resolve("cp"),
        "#!/bin/sh\n"
            + "\"$(command -v -p cp)\" \"$@\"\n"
            + "if [ ! -e '"
            + written
            + "' ]; then\n"
            + "  touch '"
            + written
            + "'\n"
            + "  echo 'the whole new jar' > '"
            + built
            + "'\n"
            + "  touch -d '+2 minutes' '"
            + built
            + "'\n"
            + "fi\n");

    Path run = ran(javaArguments(Map.of("PATH", bin + ":" + System.getenv("PATH"))));

    assertThat(written).exists();
    assertThat(run.resolve("legio.jar")).hasContent("the whole new jar");
    // Named after what it holds: the next launch finds it, rather than making one more.
    assertThat(ran(javaArguments(Map.of()))).isEqualTo(run);
    assertThat(runs()).as("no torn snapshot, no temporary folder left").hasSize(1);
    try (var files = Files.list(dir.resolve(".legio-run"))) {
      assertThat(files.filter(p -> p.getFileName().toString().startsWith(".new"))).isEmpty();
    }
  }

  @Test
  void aTemporaryFolderAKilledLaunchLeftIsRemovedAndOneALiveLaunchMakesIsNot() throws Exception {
    Path first = ran(javaArguments(Map.of()));
    // A launch killed between its copy and its rename: its process is gone, its folder stays.
    Process killed = new ProcessBuilder("true").start();
    killed.waitFor();
    Path left = Files.createDirectories(dir.resolve(".legio-run/.new." + killed.pid() + "/lib"));
    Files.writeString(left.resolve("legio-core.jar"), "half copied");
    // A launch making its snapshot now, in another process.
    Process making = new ProcessBuilder("sleep", "60").start();
    try {
      Path now = Files.createDirectories(dir.resolve(".legio-run/.new." + making.pid() + "/lib"));

      assertThat(ran(javaArguments(Map.of()))).isEqualTo(first);

      assertThat(left.getParent()).doesNotExist();
      assertThat(now).exists();
      assertThat(runs())
          .containsExactlyInAnyOrder(first.getFileName().toString(), ".new." + making.pid());
    } finally {
      making.destroyForcibly().waitFor();
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
