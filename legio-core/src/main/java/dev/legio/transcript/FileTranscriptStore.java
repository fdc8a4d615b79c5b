package dev.legio.transcript;

import dev.legio.errors.Quoted;
import dev.legio.files.LockFile;
import dev.legio.files.LockHeldException;
import dev.legio.files.OwnerOnly;
import dev.legio.transcript.TranscriptParts.Lines;
import dev.legio.transcript.TranscriptParts.Written;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Transcripts as files, laid out as Claude Code lays out its sessions: {@code <dir>/<project
 * folder>/<sessionId>.jsonl}, where the project folder is the working directory with every
 * character other than an ASCII letter or digit replaced by {@code -} ({@code /home/me/demo} →
 * {@code -home-me-demo}; a long one cut and hashed as {@link ProjectFolderName} says). Pointing
 * {@code dir} at Claude Code's {@code ~/.claude/projects} with the same working directory makes the
 * two share transcripts.
 *
 * <p>Parts: an append that would take the current file past {@code partLimitBytes} goes to {@code
 * <id>_part2.jsonl}, then {@code _part3}, and so on; an append that would take all parts together
 * past {@code totalLimitBytes} fails and writes nothing. How lines go into the parts, how a
 * transcript is created ({@link #create}: whole, appearing with everything in it) and which appends
 * are forced to disk (those holding a tombstone) are the rules of {@link TranscriptParts}.
 *
 * <p>Locking: appends to one session take a {@link LockFile} on {@code .<id>.lock} beside the
 * transcript (an OS file lock, which other processes respect; Legio's own threads wait on an
 * in-process lock first). An append, create or delete waits at most {@link #DEFAULT_LOCK_WAIT} (5
 * s) for another process to let go of that lock, then fails with {@link TranscriptLockedException}
 * naming the lock file, having written nothing: a Claude Code CLI, another {@code legio} command or
 * a stuck program holding it never holds up the thread that writes every turn's transcript (what
 * the caller does with the entries is its own rule: {@link TranscriptRecorder} keeps them). Each
 * line is written whole with one write, so readers in other processes see whole lines or a partial
 * last line, which loading skips.
 *
 * <p>Privacy: transcripts hold whole conversations, so the folders and {@code .jsonl} files this
 * store creates are its owner's only ({@link OwnerOnly}: {@code rwx------}, {@code rw-------} on
 * POSIX); folders and files that exist already keep their permissions.
 */
public final class FileTranscriptStore implements TranscriptStore {
  public static final long DEFAULT_PART_LIMIT_BYTES = 50_000_000L;
  public static final long DEFAULT_TOTAL_LIMIT_BYTES = 200_000_000L;

  /** How long an append waits for another process to let go of the transcript's lock. */
  public static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(5);

  /** What Legio writes as {@code version} (Claude Code writes its own version there). */
  public static final String VERSION = "legio";

  private static final String SUFFIX = TranscriptParts.SUFFIX;
  private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
  private static final Pattern PART = Pattern.compile("(.+)_part([0-9]{1,6})\\.jsonl");
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final Path folder;
  private volatile boolean folderReady;
  private final EntryLineWriter writer;
  private final KnownTips tips = new KnownTips();
  private final Clock clock;
  private final TranscriptParts partFiles;
  private final Duration lockWait;

  /** A store with parts of 50 MB and 200 MB in all. */
  public FileTranscriptStore(Path dir, Path cwd, Clock clock) {
    this(dir, cwd, clock, DEFAULT_PART_LIMIT_BYTES, DEFAULT_TOTAL_LIMIT_BYTES);
  }

  /**
   * A store with parts of 50 MB and 200 MB in all, in folder {@code project} of {@code dir} (null:
   * the folder Claude Code names after {@code cwd}).
   */
  public FileTranscriptStore(Path dir, Path cwd, String project, Clock clock) {
    this(dir, cwd, project, clock, DEFAULT_PART_LIMIT_BYTES, DEFAULT_TOTAL_LIMIT_BYTES);
  }

  /**
   * @param dir the transcripts folder (holding one folder per working directory)
   * @param cwd the working directory the sessions belong to, written in every entry
   * @param partLimitBytes the largest a part may grow (at most 2 GB)
   * @param totalLimitBytes the largest all parts together may grow
   */
  public FileTranscriptStore(
      Path dir, Path cwd, Clock clock, long partLimitBytes, long totalLimitBytes) {
    this(dir, cwd, null, clock, partLimitBytes, totalLimitBytes);
  }

  private FileTranscriptStore(
      Path dir, Path cwd, String project, Clock clock, long partLimitBytes, long totalLimitBytes) {
    this(dir, cwd, project, clock, partLimitBytes, totalLimitBytes, DEFAULT_LOCK_WAIT);
  }

  /** A store whose appends wait at most {@code lockWait} for another process's lock (tests). */
  FileTranscriptStore(Path dir, Path cwd, Clock clock, Duration lockWait) {
    this(dir, cwd, null, clock, DEFAULT_PART_LIMIT_BYTES, DEFAULT_TOTAL_LIMIT_BYTES, lockWait);
  }

  private FileTranscriptStore(
      Path dir,
      Path cwd,
      String project,
      Clock clock,
      long partLimitBytes,
      long totalLimitBytes,
      Duration lockWait) {
    if (partLimitBytes < 1 || partLimitBytes > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("partLimitBytes must be from 1 to 2 GB");
    }
    if (totalLimitBytes < partLimitBytes) {
      throw new IllegalArgumentException("totalLimitBytes must be at least partLimitBytes");
    }
    Path absolute = cwd.toAbsolutePath().normalize();
    this.writer = new EntryLineWriter(absolute.toString());
    this.folder =
        dir.toAbsolutePath()
            .normalize()
            .resolve(project != null ? project : projectFolderName(absolute.toString()));
    this.clock = clock;
    this.partFiles = new TranscriptParts(this.folder, partLimitBytes, totalLimitBytes);
    this.lockWait = lockWait;
    for (Path name : this.folder) {
      int bytes = name.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      if (bytes > 255) {
        throw new IllegalArgumentException(
            "the transcripts folder "
                + this.folder
                + " has a name of "
                + bytes
                + " bytes, over the 255 a file system allows: set a shorter [transcripts] dir in"
                + " legio.toml");
      }
    }
  }

  /** Claude Code's folder name for a working directory: see {@link ProjectFolderName}. */
  public static String projectFolderName(String cwd) {
    return ProjectFolderName.of(cwd);
  }

  /** The folder holding this store's transcripts. */
  public Path folder() {
    return folder;
  }

  /** The file of a session's first part. */
  public Path file(String sessionId) {
    return folder.resolve(checkId(sessionId) + SUFFIX);
  }

  /**
   * Checks that {@code sessionId} can name a file here.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static String checkId(String sessionId) {
    if (sessionId == null || sessionId.isEmpty()) {
      throw new IllegalArgumentException("a session id is required");
    }
    if (!SESSION_ID.matcher(sessionId).matches()) {
      throw new IllegalArgumentException(
          "'"
              + Quoted.of(sessionId)
              + "' is not a session id: use 1 to 128 letters, digits, '-', '_' or '.', with no"
              + " path separators");
    }
    if (sessionId.contains("..") || sessionId.startsWith(".")) {
      throw new IllegalArgumentException(
          "'" + sessionId + "' is not a session id: it must not start with '.' or contain '..'");
    }
    if (PART.matcher(sessionId + SUFFIX).matches()) {
      throw new IllegalArgumentException(
          "'" + sessionId + "' is not a session id: names ending in _partN are parts of another");
    }
    return sessionId;
  }

  // ------------------------------------------------------------------ appending

  @Override
  public void append(String sessionId, List<? extends NewEntry> entries) {
    checkId(sessionId);
    if (entries.isEmpty()) {
      return;
    }
    Lines lines = lines(sessionId, entries); // outside the lock: a turn's line may be long
    locked(sessionId, () -> partFiles.append(sessionId, parts(sessionId), lines));
  }

  @Override
  public void create(String sessionId, List<? extends NewEntry> entries) {
    checkId(sessionId);
    Lines lines = lines(sessionId, entries);
    locked(
        sessionId,
        () -> {
          partFiles.create(sessionId, lines);
          tips.forget(sessionId);
        });
  }

  @Override
  public void appendToChain(String sessionId, ChainedEntries next) {
    checkId(sessionId);
    locked(
        sessionId,
        () -> {
          List<Path> parts = parts(sessionId);
          KnownTips.PartState state =
              parts.isEmpty() ? null : KnownTips.PartState.of(parts.get(parts.size() - 1));
          UUID tip = null;
          if (state != null) {
            KnownTips.Tip known = tips.tip(sessionId, state);
            tip = known != null ? known.uuid() : TranscriptTip.of(parts);
          }
          List<? extends NewEntry> entries = next.after(state != null, tip);
          if (entries.isEmpty()) {
            return;
          }
          Written written = partFiles.append(sessionId, parts, lines(sessionId, entries));
          // The part checked above, grown by this append (under the lock, still the same file);
          // a part this append started is looked at.
          tips.appended(
              sessionId,
              state != null && written.part().equals(state.part())
                  ? state.grownTo(written.size())
                  : KnownTips.PartState.of(written.part()),
              tip,
              entries);
        });
  }

  private Lines lines(String sessionId, List<? extends NewEntry> entries) {
    String timestamp = TIMESTAMP.format(clock.instant());
    List<byte[]> lines = new ArrayList<>(entries.size());
    long batch = 0;
    boolean deletes = false;
    for (NewEntry entry : entries) {
      deletes |= entry instanceof NewEntry.Tombstone;
      byte[] line = writer.line(entry, sessionId, timestamp);
      if (line.length + 1 > partFiles.partLimit()) {
        throw new TranscriptException(
            "an entry of "
                + line.length
                + " bytes is larger than a transcript part may be ("
                + partFiles.partLimit()
                + " bytes); nothing was written to session "
                + sessionId);
      }
      lines.add(line);
      batch += line.length + 1;
    }
    return new Lines(lines, batch, deletes);
  }

  /** Something done holding a session's append lock. */
  @FunctionalInterface
  private interface Locked {
    void run() throws IOException;
  }

  private void locked(String sessionId, Locked work) {
    try {
      if (!folderReady) {
        try {
          OwnerOnly.createDirectories(folder);
        } catch (IOException e) {
          throw new TranscriptException(
              "cannot create the transcripts folder "
                  + folder
                  + " ("
                  + dev.legio.errors.FailureText.of(e)
                  + "): set [transcripts] project in legio.toml to a short folder name such as"
                  + " \"legion\", or [transcripts] dir to a folder Legio can write",
              e);
        }
        folderReady = true;
      }
      lock(sessionId)
          .run(
              lockWait,
              () -> {
                work.run();
                return null;
              });
    } catch (LockHeldException e) {
      throw new TranscriptLockedException(
          "cannot append to the transcript of session "
              + sessionId
              + ": "
              + e.getMessage()
              + "; nothing was written",
          e);
    } catch (IOException e) {
      throw new TranscriptException(
          "cannot append to the transcript of session " + sessionId + ": " + e.getMessage(), e);
    }
  }

  // ------------------------------------------------------------------ reading

  @Override
  public Transcript load(String sessionId) {
    List<Path> parts = parts(checkId(sessionId));
    if (parts.isEmpty()) {
      throw new NoSuchTranscriptException(
          "no transcript for session "
              + sessionId
              + " in "
              + folder
              + " (see `legio sessions list`)");
    }
    // Parts are read side by side: copying from the page cache is a good share of a load.
    List<TranscriptScanner.Part> read =
        parts.size() == 1
            ? List.of(TranscriptFiles.read(parts.get(0)))
            : parts.parallelStream().map(TranscriptFiles::read).toList();
    return TranscriptScanner.load(sessionId, read);
  }

  /**
   * The session's files in order: the first, then _part2, _part3, ... while they exist (a link
   * counts as one, so that reading or appending to it is refused rather than passed over).
   */
  List<Path> parts(String sessionId) {
    return partFiles.of(sessionId);
  }

  /** The lock appends and deletes of one session take: {@code .<id>.lock} beside its parts. */
  private LockFile lock(String sessionId) {
    return LockFile.at(folder.resolve("." + sessionId + ".lock"));
  }

  @Override
  public List<TranscriptInfo> list() {
    return listing().sessions();
  }

  @Override
  public TranscriptListing listing() {
    return TranscriptListing.of(folder, SUFFIX, this::info);
  }

  /**
   * Every session and when it started, reading each transcript's first part only as far as its
   * first conversation line ({@link TranscriptStartTime}), not the whole transcript as {@link
   * #listing} does.
   */
  @Override
  public TranscriptStarts starts() {
    List<String> skipped = new ArrayList<>();
    List<TranscriptStarts.Start> out = new ArrayList<>();
    for (String id : TranscriptListing.sessionIds(folder, SUFFIX, skipped)) {
      try {
        Instant started = started(file(id));
        if (started != null) {
          out.add(new TranscriptStarts.Start(id, started));
        }
      } catch (TranscriptException e) {
        skipped.add(TranscriptListing.leftOut(id, e));
      }
    }
    return new TranscriptStarts(out, skipped);
  }

  /**
   * When the transcript whose first part is {@code first} started: its first conversation line's
   * timestamp, else the part's modification time; null when the part is missing.
   */
  private static Instant started(Path first) {
    try {
      Instant start = TranscriptStartTime.of(first);
      return start != null
          ? start
          : Files.getLastModifiedTime(first, java.nio.file.LinkOption.NOFOLLOW_LINKS).toInstant();
    } catch (java.nio.file.NoSuchFileException gone) {
      return null;
    } catch (IOException e) {
      throw new TranscriptException("cannot read " + first + ": " + e.getMessage(), e);
    }
  }

  /** A session id from a part's file name ({@code <id>.jsonl}, {@code <id>_partN.jsonl}). */
  static String sessionIdOf(String fileName) {
    Matcher part = PART.matcher(fileName);
    return part.matches() ? part.group(1) : fileName.substring(0, fileName.length() - 6);
  }

  /**
   * One session's listing, or null when it has no first part.
   *
   * @throws TranscriptException when a part cannot be read (a link, say)
   */
  @Override
  public TranscriptInfo info(String sessionId) {
    List<Path> parts = parts(checkId(sessionId));
    if (parts.isEmpty()) {
      return null;
    }
    Transcript t = load(sessionId);
    try {
      long bytes = 0;
      Instant modified = Instant.EPOCH;
      for (Path p : parts) {
        bytes += Files.size(p);
        Instant m = Files.getLastModifiedTime(p).toInstant();
        if (m.isAfter(modified)) {
          modified = m;
        }
      }
      Instant created = started(parts.get(0));
      if (created == null) {
        return null; // deleted since it was loaded
      }
      return new TranscriptInfo(
          sessionId,
          t.owner(),
          t.entries().size(),
          created,
          modified,
          bytes,
          parts.size(),
          TranscriptContext.of(t.entries()));
    } catch (IOException e) {
      throw new TranscriptException(
          "cannot read the transcript of session " + sessionId + ": " + e.getMessage(), e);
    }
  }

  @Override
  public int delete(String sessionId) {
    checkId(sessionId);
    LockFile lock = lock(sessionId);
    try {
      return lock.runInProcess(
          () -> {
            if (parts(sessionId).isEmpty()) {
              return 0;
            }
            // Under the append lock, so that no append of another process is half-way through.
            int removed =
                lock.run(
                    lockWait,
                    () -> {
                      List<Path> parts = parts(sessionId);
                      int n = 0;
                      // Later parts first, so an interrupted delete never leaves parts without
                      // their first.
                      for (int k = parts.size() - 1; k >= 0; k--) {
                        if (Files.deleteIfExists(parts.get(k))) {
                          n++;
                        }
                      }
                      return n;
                    });
            Files.deleteIfExists(lock.file());
            tips.forget(sessionId);
            return removed;
          });
    } catch (LockHeldException e) {
      throw new TranscriptLockedException(
          "cannot delete the transcript of session "
              + sessionId
              + ": "
              + e.getMessage()
              + "; nothing was deleted",
          e);
    } catch (IOException e) {
      throw new TranscriptException(
          "cannot delete the transcript of session " + sessionId + ": " + e.getMessage(), e);
    }
  }
}
