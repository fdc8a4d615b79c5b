package dev.legio.longterm;

import dev.legio.files.AtomicFile;
import dev.legio.files.FolderLock;
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
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent's {@code .consolidation_lock}: the file exists while a consolidation runs, holding when
 * it was taken and last renewed, the holder's own token and the holding process ({@link
 * ConsolidationLockContent}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Taking the lock creates the file with {@code CREATE_NEW}: of any number of threads and
 *       processes trying at once, exactly one succeeds.
 *   <li>While it is held, a heartbeat renews it every third of the stale age: a run that is alive
 *       is never taken for a crashed one, however long its model takes.
 *   <li>A lock renewed less than the stale age ago is live and refuses everyone else ({@link Held},
 *       naming its holder). One older is stale (its holder hangs or crashed) and may be taken over;
 *       so may, at once, a lock whose holder is a process of this host that has ended ({@link
 *       ConsolidationLockHolder#isGone()}: a {@code kill -9}). A lock whose time cannot be read (a
 *       holder caught between creating and writing it) is dated by the file's modification time.
 *   <li>Takeovers, renewals, releases and the holder's writes ({@link #whileHeld}) are serialised
 *       between threads and processes by the memory folder's lock ({@link FolderLock}, the one
 *       extraction's appends take): under it the lock is read again and, if still stale, deleted
 *       and re-created with {@code CREATE_NEW}. Two takeovers never both win, and a takeover never
 *       removes a lock someone has just taken.
 *   <li>A lock is still its holder's exactly while the file holds the holder's token. The holder
 *       checks it under the folder's lock immediately before it writes anything ({@link
 *       #whileHeld}); a holder whose lock was taken over writes nothing more ({@link Lost}), stops
 *       renewing, and never removes its successor's lock on release.
 * </ul>
 */
public final class ConsolidationLock implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConsolidationLock.class);

  public static final String FILE_NAME = ".consolidation_lock";

  private final Path folder;
  private final Path file;
  private final Duration staleAfter;
  private final Clock clock;
  private volatile ConsolidationLockContent mine;
  private volatile ScheduledExecutorService heartbeat;
  private boolean released;

  private ConsolidationLock(
      Path folder, ConsolidationLockContent mine, Duration staleAfter, Clock clock) {
    this.folder = folder;
    this.file = folder.resolve(FILE_NAME);
    this.mine = mine;
    this.staleAfter = staleAfter;
    this.clock = clock;
  }

  /** What taking the lock gave: the lock, or who holds it. */
  public sealed interface Attempt {}

  /**
   * Taken.
   *
   * @param replaced the lock it took over; null when there was none
   */
  public record Acquired(ConsolidationLock lock, Replaced replaced) implements Attempt {}

  /**
   * A lock that was taken over.
   *
   * @param since when it was taken
   * @param holder its holder; null when it named none
   * @param holderEnded true when taken over because its holder had ended, false because stale
   */
  public record Replaced(Instant since, ConsolidationLockHolder holder, boolean holderEnded) {}

  /**
   * Another consolidation holds a live lock.
   *
   * @param file the lock file
   * @param since when it was taken
   * @param holder the process holding it; null when the lock names none
   */
  public record Held(Path file, Instant since, ConsolidationLockHolder holder) implements Attempt {}

  /** This holder's lock was taken over: it must write nothing more. */
  public static final class Lost extends IOException {
    Lost(String message) {
      super(message);
    }
  }

  /**
   * Tries to take the lock in {@code folder} (which must exist); starts its heartbeat when taken.
   *
   * @throws IOException when the folder cannot be written
   */
  public static Attempt tryAcquire(Path folder, Duration staleAfter, Clock clock)
      throws IOException {
    Attempt attempt = take(folder, staleAfter, clock);
    if (attempt instanceof Acquired acquired) {
      acquired.lock().startHeartbeat();
    }
    return attempt;
  }

  private static Attempt take(Path folder, Duration staleAfter, Clock clock) throws IOException {
    Path file = folder.resolve(FILE_NAME);
    ConsolidationLock created = create(folder, staleAfter, clock);
    if (created != null) {
      return new Acquired(created, null);
    }
    return FolderLock.run(
        folder,
        () -> {
          for (int attempt = 0; attempt < 3; attempt++) {
            Existing existing = existing(file, clock);
            if (existing == null) {
              ConsolidationLock fresh = create(folder, staleAfter, clock);
              if (fresh != null) {
                return new Acquired(fresh, null);
              }
              continue; // taken meanwhile by a plain CREATE_NEW: look again
            }
            ConsolidationLockHolder holder = existing.content().holder();
            boolean ended = holder != null && holder.isGone();
            boolean stale =
                Duration.between(existing.lastSign(), clock.instant()).compareTo(staleAfter) >= 0;
            if (!ended && !stale) {
              return new Held(file, existing.since(), holder);
            }
            // Under the folder's lock only this thread deletes: holders renew and release under it
            // too, and a plain CREATE_NEW cannot succeed while the file exists.
            Files.deleteIfExists(file);
            ConsolidationLock fresh = create(folder, staleAfter, clock);
            if (fresh != null) {
              return new Acquired(fresh, new Replaced(existing.since(), holder, ended));
            }
          }
          Existing last = existing(file, clock);
          return last == null
              ? new Held(file, clock.instant(), null)
              : new Held(file, last.since(), last.content().holder());
        });
  }

  /** Creates the lock file with CREATE_NEW; null when it exists. */
  private static ConsolidationLock create(Path folder, Duration staleAfter, Clock clock)
      throws IOException {
    Instant now = Instant.ofEpochSecond(clock.instant().getEpochSecond());
    ConsolidationLockContent content =
        new ConsolidationLockContent(
            now, null, UUID.randomUUID().toString(), ConsolidationLockHolder.thisProcess());
    try (FileChannel out =
        FileChannel.open(
            folder.resolve(FILE_NAME), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      out.write(java.nio.ByteBuffer.wrap(content.render().getBytes(StandardCharsets.US_ASCII)));
      out.force(true);
    } catch (FileAlreadyExistsException e) {
      return null;
    }
    return new ConsolidationLock(folder, content, staleAfter, clock);
  }

  /**
   * A lock file as read: its content, when it was taken and when last renewed (both by the file's
   * age when its content has no time).
   */
  private record Existing(ConsolidationLockContent content, Instant since, Instant lastSign) {}

  /**
   * The lock file as it is now, or null when there is none. A lock with no readable time (a holder
   * between creating and writing it) is dated by its modification time: its age on the file
   * system's clock, which is the real one, counted back from {@code clock}'s now (so an injected
   * clock never makes a lock created a moment ago look hours old).
   */
  private static Existing existing(Path file, Clock clock) throws IOException {
    BasicFileAttributes attributes;
    String text;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    }
    ConsolidationLockContent content = ConsolidationLockContent.parse(text);
    if (content.taken() == null) {
      Instant byAge = byAge(attributes, clock);
      return new Existing(content, byAge, byAge);
    }
    return new Existing(content, content.taken(), content.lastSign());
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

  /** True when the lock file holds this holder's token; call it under the folder's lock. */
  private boolean stillMine() throws IOException {
    Existing now = existing(file, clock);
    return now != null && Objects.equals(now.content().token(), mine.token());
  }

  /**
   * Runs {@code action} (the holder's writes) under the folder's lock, after checking there that
   * the lock is still this holder's. The action must not take the folder's lock again.
   *
   * @throws Lost when another run took the lock over: nothing is run
   */
  public <T> T whileHeld(FolderLock.Action<T> action) throws IOException {
    return FolderLock.run(
        folder,
        () -> {
          if (!stillMine()) {
            stopHeartbeat();
            throw new Lost(
                "this consolidation lost its lock "
                    + file
                    + " to another run (not renewed for "
                    + staleAfter.toMinutes()
                    + " min: this process stalled); it wrote nothing more, the other run"
                    + " consolidates");
          }
          return action.run();
        });
  }

  private void startHeartbeat() {
    long every = Math.max(1, staleAfter.toMillis() / 3);
    ScheduledExecutorService beat =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("legio-consolidation-heartbeat").factory());
    heartbeat = beat;
    beat.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
  }

  private void stopHeartbeat() {
    ScheduledExecutorService beat = heartbeat;
    if (beat != null) {
      beat.shutdown();
    }
  }

  /** One heartbeat: rewrites the lock with the renewal time, if it is still this holder's. */
  void renew() {
    try {
      FolderLock.run(
          folder,
          () -> {
            if (!stillMine()) {
              stopHeartbeat(); // taken over or released: nothing to renew
              return null;
            }
            ConsolidationLockContent renewed =
                mine.renewedAt(Instant.ofEpochSecond(clock.instant().getEpochSecond()));
            AtomicFile.write(file, renewed.render());
            mine = renewed;
            return null;
          });
    } catch (IOException | RuntimeException e) {
      log.warn("cannot renew the consolidation lock {}: {}", file, e.toString());
    }
  }

  /** Releases the lock if it is still this holder's (see the class comment). Idempotent. */
  @Override
  public synchronized void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    stopHeartbeat();
    FolderLock.run(
        folder,
        () -> {
          if (stillMine()) {
            Files.deleteIfExists(file);
          }
          return null;
        });
  }
}
