package dev.legio.longterm;

import dev.legio.files.LockFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An agent's {@code .consolidation_lock}: the file exists while a consolidation runs, holding the
 * Unix time (seconds) it was taken.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Taking the lock creates the file with {@code CREATE_NEW}: of any number of threads and
 *       processes trying at once, exactly one succeeds.
 *   <li>A lock younger than the stale age is live and refuses everyone else. One older is stale
 *       (its holder crashed or hangs) and may be taken over. A lock whose content is not a number
 *       (a holder caught between creating and writing it) is dated by the file's modification time.
 *   <li>A takeover is serialised between threads and processes by a {@link LockFile} on {@code
 *       .consolidation_lock.takeover}, under which holders also release: under it the lock is read
 *       again and, if still stale, deleted and re-created with {@code CREATE_NEW}. While the stale
 *       file exists nobody else can create one, and nobody else deletes it: two takeovers never
 *       both win, and a takeover never removes a lock someone has just taken.
 *   <li>Releasing deletes the file only if it is still the one this holder created (same file key
 *       and content): a holder that outlived the stale age never removes its successor's lock.
 * </ul>
 */
public final class ConsolidationLock implements AutoCloseable {
  public static final String FILE_NAME = ".consolidation_lock";
  static final String TAKEOVER_FILE = FILE_NAME + ".takeover";

  private final Path file;
  private final Object fileKey;
  private final String content;
  private boolean released;

  private ConsolidationLock(Path file, Object fileKey, String content) {
    this.file = file;
    this.fileKey = fileKey;
    this.content = content;
  }

  /** What taking the lock gave: the lock, or who holds it. */
  public sealed interface Attempt {}

  /**
   * Taken.
   *
   * @param tookOverSince when the stale lock it replaced was taken; null when there was none
   */
  public record Acquired(ConsolidationLock lock, Instant tookOverSince) implements Attempt {}

  /** Another consolidation holds a live lock, taken at {@code since}. */
  public record Held(Instant since) implements Attempt {}

  /**
   * Tries to take the lock in {@code folder} (which must exist).
   *
   * @throws IOException when the folder cannot be written
   */
  public static Attempt tryAcquire(Path folder, Duration staleAfter, Clock clock)
      throws IOException {
    Path file = folder.resolve(FILE_NAME);
    ConsolidationLock created = create(file, clock);
    if (created != null) {
      return new Acquired(created, null);
    }
    return underGuard(
        folder,
        () -> {
          for (int attempt = 0; attempt < 3; attempt++) {
            Existing existing = existing(file, clock);
            if (existing == null) {
              ConsolidationLock fresh = create(file, clock);
              if (fresh != null) {
                return new Acquired(fresh, null);
              }
              continue; // taken meanwhile by a plain CREATE_NEW: look again
            }
            if (Duration.between(existing.since(), clock.instant()).compareTo(staleAfter) < 0) {
              return new Held(existing.since());
            }
            // Stale. Under the guard only this thread deletes: holders release under it too, and
            // a plain CREATE_NEW cannot succeed while the file exists.
            Files.deleteIfExists(file);
            ConsolidationLock fresh = create(file, clock);
            if (fresh != null) {
              return new Acquired(fresh, existing.since());
            }
          }
          Existing last = existing(file, clock);
          return new Held(last == null ? clock.instant() : last.since());
        });
  }

  /**
   * Runs {@code action} holding the takeover guard: a {@link LockFile} on {@code
   * .consolidation_lock.takeover} (this JVM's threads and other processes).
   */
  private static <T> T underGuard(Path folder, LockFile.Action<T> action) throws IOException {
    return LockFile.at(folder.resolve(TAKEOVER_FILE)).run(action);
  }

  /** Creates the lock file with CREATE_NEW; null when it exists. */
  private static ConsolidationLock create(Path file, Clock clock) throws IOException {
    String content = Long.toString(clock.instant().getEpochSecond());
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      out.write(java.nio.ByteBuffer.wrap(content.getBytes(StandardCharsets.US_ASCII)));
      out.force(true);
    } catch (FileAlreadyExistsException e) {
      return null;
    }
    Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    return new ConsolidationLock(file, key, content);
  }

  private record Existing(Instant since, Object fileKey, String content) {}

  /**
   * The lock file as it is now, or null when there is none. A lock with no readable time (a holder
   * between creating and writing it) is dated by its modification time: its age on the file
   * system's clock, which is the real one, counted back from {@code clock}'s now (so an injected
   * clock never makes a lock created a moment ago look hours old).
   */
  private static Existing existing(Path file, Clock clock) throws IOException {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      String content = Files.readString(file, StandardCharsets.US_ASCII).strip();
      Instant since;
      try {
        since = Instant.ofEpochSecond(Long.parseLong(content));
      } catch (NumberFormatException | java.time.DateTimeException e) {
        since = byAge(attributes, clock);
      }
      return new Existing(since, attributes.fileKey(), content);
    } catch (NoSuchFileException e) {
      return null;
    } catch (java.nio.charset.MalformedInputException e) {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return new Existing(byAge(attributes, clock), attributes.fileKey(), "");
    }
  }

  private static Instant byAge(BasicFileAttributes attributes, Clock clock) {
    Duration age = Duration.between(attributes.lastModifiedTime().toInstant(), Instant.now());
    return clock.instant().minus(age.isNegative() ? Duration.ZERO : age);
  }

  /** When the lock in {@code folder} was taken, or null when there is none. */
  public static Instant heldSince(Path folder) throws IOException {
    Existing e = existing(folder.resolve(FILE_NAME), Clock.systemUTC());
    return e == null ? null : e.since();
  }

  /** Releases the lock if it is still this holder's (see the class comment). Idempotent. */
  @Override
  public synchronized void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    underGuard(
        file.getParent(),
        () -> {
          Existing now = existing(file, Clock.systemUTC());
          if (now != null
              && Objects.equals(now.fileKey(), fileKey)
              && now.content().equals(content)) {
            Files.deleteIfExists(file);
          }
          return null;
        });
  }
}
