package dev.legio.backend.claudecli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The real CLI behind a script that, once the CLI has exited, waits for the test's {@link
 * #release()} before it exits itself: a process of Legio's that is slow to exit, for as long as the
 * test says. The script notes {@code start} when it starts and {@code end} when it exits ({@link
 * #log()}).
 *
 * @param executable the script, to run in the CLI's place
 * @param dir where the script, its log and the release file are
 */
record SlowToExitCli(Path executable, Path dir) {
  /** Where the script writes {@code start} when it starts and {@code end} when it exits. */
  private static final String LOG = "starts-and-ends";

  /** The file whose presence lets the script exit. */
  private static final String RELEASE = "release";

  /** The script around {@code cli}, written in {@code dir}. */
  static SlowToExitCli around(Path cli, Path dir) throws IOException {
    Path script = dir.resolve("claude-slow-to-exit");
    Files.writeString(
        script,
        """
        #!/bin/sh
        echo start >> '%1$s'
        '%2$s' "$@"
        status=$?
        while [ ! -e '%3$s' ]; do sleep 0.05; done
        echo end >> '%1$s'
        exit $status
        """
            .formatted(dir.resolve(LOG), cli, dir.resolve(RELEASE)));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return new SlowToExitCli(script, dir);
  }

  /** Lets every run of the script, now and later, exit once its CLI has. */
  void release() throws IOException {
    Files.writeString(dir.resolve(RELEASE), "");
  }

  /** {@code start} for each run started, {@code end} for each run exited, in order. */
  List<String> log() throws IOException {
    return Files.readAllLines(dir.resolve(LOG));
  }
}
