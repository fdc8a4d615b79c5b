package dev.legio.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

/**
 * The files and folders a piece of work forced to disk ({@code FileChannel.force}, that is {@code
 * fsync}), as the JDK's own {@code jdk.FileForce} flight-recorder events tell: a test sees the real
 * calls without a seam in the code it tests.
 */
public final class ForcedFiles {
  private static final String EVENT = "jdk.FileForce";

  private ForcedFiles() {}

  /** Work that may fail. */
  @FunctionalInterface
  public interface Work {
    void run() throws Exception;
  }

  /** The absolute paths {@code work} forced, in order (one per force). */
  public static List<Path> during(Work work) throws Exception {
    if (FlightRecorder.getFlightRecorder().getEventTypes().stream()
        .noneMatch(t -> t.getName().equals(EVENT))) {
      throw new AssertionError("this JDK records no " + EVENT + " events (JDK 22 and later do)");
    }
    Path dump = Files.createTempFile("legio-forced-", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable(EVENT).withoutThreshold();
      recording.start();
      work.run();
      recording.stop();
      recording.dump(dump);
      return RecordingFile.readAllEvents(dump).stream()
          .map(e -> Path.of(e.getString("path")).toAbsolutePath().normalize())
          .toList();
    } finally {
      Files.deleteIfExists(dump);
    }
  }
}
