package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that applied {@link ProcessSecretsGuard} and one that did not, each starting programs
 * under its own user that read its {@code /proc/PID/environ} and attach to it with {@code jcmd}, as
 * an agent's shell command could: each in a JVM of its own, under an unprivileged user (as root,
 * {@code setpriv} drops to nobody: root may read any process).
 */
class ProcessSecretsGuardTest {
  private static final String SECRET_NAME = "LEGIO_TEST_GATEWAY_TOKEN";

  @TempDir Path dir;

  /**
   * What the probe JVM prints: what the guard achieved, what its child {@code cat} could read, and
   * whether its child {@code jcmd} could attach.
   */
  record Probed(boolean hidden, boolean attachDisabled, int readExit, boolean seen, int jcmdExit) {}

  @Test
  void aChildOfTheGuardedProcessStartedAsLegioIsCanNeitherReadItsEnvironmentNorAttach()
      throws Exception {
    Probed guarded = probe(true, true);

    assertThat(guarded.hidden()).isTrue();
    assertThat(guarded.attachDisabled()).isTrue();
    assertThat(guarded.readExit()).as("cat /proc/PARENT/environ").isNotZero();
    assertThat(guarded.seen()).isFalse();
    assertThat(guarded.jcmdExit()).as("jcmd PARENT VM.version").isNotZero();
  }

  @Test
  void withoutTheGuardTheChildReadsAndAttachesSoTheChecksAboveCanFail() throws Exception {
    Probed open = probe(false, false);

    assertThat(open.hidden()).isFalse();
    assertThat(open.readExit()).isZero();
    assertThat(open.seen()).isTrue();
    assertThat(open.jcmdExit()).isZero();
  }

  @Test
  void theGuardTellsAJvmThatStillTakesAnAttach() throws Exception {
    Probed guardedOnly = probe(true, false);

    assertThat(guardedOnly.hidden()).isTrue();
    assertThat(guardedOnly.attachDisabled()).as("what makes the guard warn").isFalse();
    assertThat(guardedOnly.readExit()).isNotZero();
  }

  @Test
  void theGuardAtStartClosesTheEnvironmentUnlessSomeoneIsDebugging() throws Exception {
    Probed atStart = probe("at-start", true);
    Probed debugging = probe("at-start-debugging", false);

    assertThat(atStart.hidden()).isTrue();
    assertThat(atStart.readExit()).isNotZero();
    assertThat(debugging.hidden()).isFalse();
    assertThat(debugging.seen()).isTrue();
  }

  @Test
  void liftedForHideSecretsFromAgentsFalseTheEnvironmentIsReadableAgain() throws Exception {
    Probed lifted = probe("guard-then-lift", false);

    assertThat(lifted.hidden()).isFalse();
    assertThat(lifted.seen()).isTrue();
  }

  private Probed probe(boolean guard, boolean noAttach) throws Exception {
    return probe(guard ? "guard" : "open", noAttach);
  }

  private Probed probe(String mode, boolean noAttach) throws Exception {
    Files.setPosixFilePermissions(this.dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path dir = Files.createDirectories(this.dir.resolve(mode)); // one per probe
    assumeTrue(
        System.getProperty("os.name").startsWith("Linux") || "true".equals(System.getenv("CI")),
        "only Linux has /proc/PID/environ");
    Path classes = dir.resolve("classes");
    List<String> classpath = new ArrayList<>();
    classpath.add(classes.toString());
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      String name = path.getFileName().toString();
      if (name.startsWith("jna-") || name.startsWith("slf4j-api-")) {
        Path copy = dir.resolve(name); // readable by the unprivileged user, unlike ~/.m2
        Files.copy(path, copy);
        classpath.add(copy.toString());
      } else if (Files.isDirectory(path)) {
        copyClasses(
            path, classes, "dev/legio/app/ProcessSecretsGuard", "dev/legio/app/os/LinuxLibc");
      }
    }
    Path jnaTemp = Files.createDirectories(dir.resolve("jna"));
    openToAll(dir);
    String secret = "hidden-" + UUID.randomUUID();
    List<String> command = new ArrayList<>();
    if (isRoot()) {
      command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
    }
    command.addAll(
        List.of(
            ProcessHandle.current().info().command().orElseThrow(),
            noAttach ? "-XX:+DisableAttachMechanism" : "-XX:-DisableAttachMechanism",
            "-Djna.tmpdir=" + jnaTemp,
            "-cp",
            String.join(File.pathSeparator, classpath),
            Probe.class.getName(),
            mode));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().put(SECRET_NAME, secret);
    builder.redirectErrorStream(true);
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    Map<String, String> said = new java.util.HashMap<>();
    out.lines()
        .filter(l -> l.startsWith("probe "))
        .forEach(l -> said.put(l.split(" ")[1], l.split(" ")[2]));
    assertThat(said).as(out).containsKeys("hidden", "attachDisabled", "read", "seen", "jcmd");
    return new Probed(
        Boolean.parseBoolean(said.get("hidden")),
        Boolean.parseBoolean(said.get("attachDisabled")),
        Integer.parseInt(said.get("read")),
        Boolean.parseBoolean(said.get("seen")),
        Integer.parseInt(said.get("jcmd")));
  }

  private static boolean isRoot() throws IOException, InterruptedException {
    Process id = new ProcessBuilder("id", "-u").start();
    String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    id.waitFor();
    return uid.equals("0");
  }

  /** Copies the class files under {@code from} whose path starts with one of {@code prefixes}. */
  private static void copyClasses(Path from, Path to, String... prefixes) throws IOException {
    List<String> wanted = new ArrayList<>(List.of(prefixes));
    wanted.add(Probe.class.getName().replace('.', '/').replace("$Probe", ""));
    try (var files = Files.walk(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String relative = from.relativize(file).toString().replace(File.separatorChar, '/');
        if (wanted.stream().anyMatch(relative::startsWith)) {
          Path target = to.resolve(relative);
          Files.createDirectories(target.getParent());
          Files.copy(file, target);
        }
      }
    }
  }

  private static void openToAll(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path path : paths.toList()) {
        Files.setPosixFilePermissions(
            path,
            PosixFilePermissions.fromString(
                Files.isDirectory(path)
                    ? (path.getFileName().toString().equals("jna") ? "rwxrwxrwx" : "rwxr-xr-x")
                    : "rw-r--r--"));
      }
    }
  }

  /**
   * Run in its own JVM: applies the guard or not, then has {@code cat} read its environment and
   * {@code jcmd} attach to it.
   */
  public static final class Probe {
    public static void main(String[] args) throws Exception {
      switch (args[0]) {
        case "guard" -> ProcessSecretsGuard.apply();
        case "at-start" -> ProcessSecretsGuard.atStart(java.util.Map.of());
        case "at-start-debugging" ->
            ProcessSecretsGuard.atStart(java.util.Map.of("LEGIO_ALLOW_JVM_ATTACH", "1"));
        case "guard-then-lift" -> {
          ProcessSecretsGuard.apply();
          ProcessSecretsGuard.lift();
        }
        default -> {}
      }
      ProcessSecretsGuard.Guarded guarded =
          new ProcessSecretsGuard.Guarded(
              !ProcessSecretsGuard.dumpable(), ProcessSecretsGuard.attachDisabled());
      String pid = Long.toString(ProcessHandle.current().pid());
      Process cat =
          new ProcessBuilder("cat", "/proc/" + pid + "/environ")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String environ = new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int read = cat.waitFor();
      Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
      Process attach =
          new ProcessBuilder(jcmd.toString(), pid, "VM.version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      int attached = attach.waitFor();
      System.out.println("probe hidden " + guarded.environmentHidden());
      System.out.println("probe attachDisabled " + guarded.attachDisabled());
      System.out.println("probe read " + read);
      System.out.println("probe seen " + environ.contains(System.getenv(SECRET_NAME)));
      System.out.println("probe jcmd " + attached);
    }
  }
}
