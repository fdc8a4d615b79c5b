package dev.legio.longterm;

import dev.legio.backend.ModelBackend;
import dev.legio.config.LegioConfig;
import dev.legio.files.AtomicFile;
import dev.legio.files.OwnerOnly;
import dev.legio.transcript.TranscriptException;
import dev.legio.transcript.TranscriptInfo;
import dev.legio.transcript.TranscriptStore;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consolidation ("dream") of an agent's long-term memory folder ({@code <[memory] dir>/<agent>/}).
 *
 * <p>Gates, checked in this order, cheapest first; the first that fails stops the run before
 * anything is changed ({@link ConsolidationResult.Skipped}):
 *
 * <ol>
 *   <li>time: at least {@code dream_min_hours} since {@code last_consolidated_at} of {@code
 *       .consolidation_state.json} (no file: never run; a malformed one: reported, kept as a copy,
 *       treated as never run). Reads one small file; nothing else is touched when it fails.
 *   <li>sessions: at least {@code dream_min_sessions} of the agent's transcripts (by owner)
 *       modified after that time.
 *   <li>lock: {@link ConsolidationLock} taken (a live lock refuses; a stale one, or one whose
 *       holder has ended, is taken over), renewed by its heartbeat while the run goes on, released
 *       when the run ends, however it ends.
 * </ol>
 *
 * {@code force} skips the time and sessions gates, never the lock. The gates' rules are in {@link
 * ConsolidationGates}.
 *
 * <p>Phases, each reported to the {@link ConsolidationListener}:
 *
 * <ol>
 *   <li>orient: read {@code MEMORY.md} and the folder's topic files ({@code *.md}), never through a
 *       symbolic link ({@link MemoryFileRead}): a linked topic file is skipped with a warning
 *       naming it, so its target never reaches the model; a {@code MEMORY.md} that is a link, a
 *       folder or not UTF-8, or a topic file that is not UTF-8, stops the run {@link
 *       ConsolidationResult.Refused refused} ({@link MemoryFileRefused}: the operator's to fix).
 *   <li>gather: the facts under {@code ## Auto-extracted memories}; the agent's transcripts changed
 *       since the last run, newest first, at most {@value #TRANSCRIPT_CHARS} characters in all
 *       ({@link TranscriptExcerpts}; read only when the model will be asked).
 *   <li>consolidate: when the agent's back-end {@link ModelBackend#canComplete() can complete}, ask
 *       it for updated topic files ({@link ConsolidationModel}); facts it did not take, and all of
 *       them when it cannot answer or its answer is unusable, go deterministically into one file
 *       per category ({@code preferences.md}, {@code project.md}, ...), deduplicated (the highest
 *       confidence kept; {@link CategoryFiling}). Relative dates are made absolute ({@link
 *       ConsolidationDates}) either way. Lines of the extracted section that are not facts go to
 *       {@code unsorted.md}.
 *   <li>prune: rewrite {@code MEMORY.md} as the index ({@link MemoryIndexBuilder}: a link per
 *       existing topic file, pointers to missing files dropped), without the facts consolidated
 *       (facts appended meanwhile stay), within {@code index_max_lines}, re-reading and rewriting
 *       it under the folder's lock that extraction's appends take too, so no append is lost; then
 *       remove the files the model asked to remove, then write the state.
 * </ol>
 *
 * The run writes only through {@link ConsolidationLock#whileHeld}: the topic files in one go, then
 * {@code MEMORY.md}, removals and state in another, each after checking under the folder's lock
 * that the consolidation lock is still this run's. A run whose lock was taken over meanwhile (it
 * stalled longer than {@code dream_lock_stale_minutes}) writes nothing more and ends {@link
 * ConsolidationResult.Skipped skipped} at the lock gate, saying so; the run that took over does the
 * work.
 *
 * <p>Every file is written atomically. A crash mid-run leaves each file whole, old or new, and the
 * state not advanced: the next run repeats the work, and deduplication makes that harmless.
 */
public final class ConsolidationRunner {
  private static final Logger log = LoggerFactory.getLogger(ConsolidationRunner.class);

  /** The most characters of transcripts one run gives the model. */
  public static final int TRANSCRIPT_CHARS = TranscriptExcerpts.TOTAL_CHARS;

  /** Where lines of MEMORY.md that fit nowhere else are kept. */
  public static final String UNSORTED = CategoryFiling.UNSORTED;

  private static final Pattern LISTED_TOPIC = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*\\.md");

  /** The model an agent's consolidation asks: its back-end and model (null: the default). */
  public record Model(ModelBackend backend, String model) {}

  private final LegioConfig.Memory settings;
  private final TranscriptStore transcripts;
  private final Function<String, Model> models;
  private final Clock clock;
  private final ConsolidationGates gates;
  private final TranscriptExcerpts excerpts;

  /**
   * @param settings the {@code [memory]} section
   * @param transcripts where the agents' sessions' transcripts are
   * @param models each agent's back-end and model
   */
  public ConsolidationRunner(
      LegioConfig.Memory settings,
      TranscriptStore transcripts,
      Function<String, Model> models,
      Clock clock) {
    this.settings = settings;
    this.transcripts = transcripts;
    this.models = models;
    this.clock = clock;
    this.gates =
        new ConsolidationGates(
            settings.dreamMinHours(), settings.dreamMinSessions(), settings.dreamLockStale());
    this.excerpts = new TranscriptExcerpts(transcripts);
  }

  /**
   * The agent's memory folder.
   *
   * @throws IllegalArgumentException when {@code agent} is not an agent's name ({@link
   *     MemoryFolder#requireAgentName})
   */
  public Path folder(String agent) {
    return MemoryFolder.of(settings.dir(), agent).folder();
  }

  /**
   * Runs the gates and, when they pass, the four phases for one agent.
   *
   * @param force skip the time and sessions gates (never the lock)
   * @throws IllegalArgumentException when {@code agent} is not an agent's name
   */
  public ConsolidationResult run(String agent, boolean force, ConsolidationListener listener) {
    Path folder = folder(agent);
    List<String> warnings = new ArrayList<>();
    Instant now = clock.instant();

    ConsolidationState.Read read = ConsolidationState.read(folder);
    if (read.problem() != null) {
      warnings.add(read.problem());
      log.warn("{}", read.problem());
    }
    Instant last = read.state().lastConsolidatedAt();
    Optional<ConsolidationGates.Closed> closed = gates.time(last, now, force);
    if (closed.isPresent()) {
      return skipped(agent, closed.get(), warnings);
    }

    List<TranscriptInfo> changed;
    try {
      changed = ConsolidationGates.changedSessions(transcripts.list(), agent, last);
    } catch (TranscriptException e) {
      log.error("consolidation of {}: cannot list transcripts", agent, e);
      return new ConsolidationResult.Failed(
          agent,
          ConsolidationPhase.GATHER,
          "cannot list the transcripts to count " + agent + "'s sessions: " + e.getMessage(),
          warnings);
    }
    closed = gates.sessions(changed.size(), last, force);
    if (closed.isPresent()) {
      return skipped(agent, closed.get(), warnings);
    }

    ConsolidationLock.Attempt attempt;
    try {
      OwnerOnly.createDirectories(folder);
      attempt = ConsolidationLock.tryAcquire(folder, settings.dreamLockStale(), clock);
    } catch (IOException e) {
      log.error("consolidation of {}: cannot take the lock", agent, e);
      return new ConsolidationResult.Failed(
          agent,
          ConsolidationPhase.ORIENT,
          "cannot take the lock in " + folder + ": " + e.getMessage() + "; check its permissions",
          warnings);
    }
    if (attempt instanceof ConsolidationLock.Held held) {
      return skipped(agent, gates.held(held, now), warnings);
    }
    ConsolidationLock.Acquired acquired = (ConsolidationLock.Acquired) attempt;
    if (acquired.replaced() != null) {
      String note = ConsolidationGates.tookOver(acquired.replaced());
      warnings.add(note);
      log.warn("consolidation of {}: {}", agent, note);
    }
    Run run = new Run(agent, folder, changed, listener, warnings, acquired.lock());
    try (ConsolidationLock lock = acquired.lock()) {
      return run.go();
    } catch (ConsolidationLock.Lost e) {
      log.warn("consolidation of {}: {}", agent, e.getMessage());
      return new ConsolidationResult.Skipped(
          agent, ConsolidationGate.LOCK, e.getMessage(), warnings);
    } catch (MemoryFileRefused e) {
      // The caller tells the operator; the log file gets the line, with no stack to add to it.
      log.info("consolidation of {} refused in {}: {}", agent, run.phase.label(), e.getMessage());
      return new ConsolidationResult.Refused(agent, run.phase, e.getMessage(), warnings);
    } catch (IOException | RuntimeException e) {
      log.error("consolidation of {} failed in {}", agent, run.phase.label(), e);
      return new ConsolidationResult.Failed(
          agent,
          run.phase,
          "consolidation of "
              + agent
              + " failed in "
              + run.phase.label()
              + ": "
              + e.getMessage()
              + " (nothing half-written; it runs again next time)",
          warnings);
    }
  }

  private static ConsolidationResult.Skipped skipped(
      String agent, ConsolidationGates.Closed closed, List<String> warnings) {
    return new ConsolidationResult.Skipped(agent, closed.gate(), closed.reason(), warnings);
  }

  /** One run's work, phase by phase. */
  private final class Run {
    final String agent;
    final Path folder;
    final List<TranscriptInfo> changed;
    final ConsolidationListener listener;
    final List<String> warnings;
    final ConsolidationLock lock;
    ConsolidationPhase phase = ConsolidationPhase.ORIENT;

    MemoryFile memory;
    final TopicFiles topics = new TopicFiles();
    final List<String> filesWritten = new ArrayList<>();
    final Set<String> modelFiles = new HashSet<>();

    Run(
        String agent,
        Path folder,
        List<TranscriptInfo> changed,
        ConsolidationListener listener,
        List<String> warnings,
        ConsolidationLock lock) {
      this.agent = agent;
      this.folder = folder;
      this.changed = changed;
      this.listener = listener;
      this.warnings = warnings;
      this.lock = lock;
    }

    ConsolidationResult go() throws IOException {
      start(ConsolidationPhase.ORIENT);
      String text = MemoryFolder.readFile(folder.resolve(MemoryFile.FILE_NAME)).orElse(null);
      memory = text == null ? MemoryFile.empty() : MemoryFile.parse(text);
      readTopics();
      finish(
          text == null
              ? "no MEMORY.md yet, " + count(topics.read.size(), "topic file")
              : "MEMORY.md "
                  + memory.lines().size()
                  + " lines, "
                  + count(topics.read.size(), "topic file"));

      start(ConsolidationPhase.GATHER);
      List<ConsolidationFact> facts = memory.facts();
      List<MemoryFile.Unparsed> unparsed = memory.unparsed();
      Model model = models.apply(agent);
      boolean ask = model != null && model.backend() != null && model.backend().canComplete();
      List<ConsolidationModel.Excerpt> excerpts =
          ask ? ConsolidationRunner.this.excerpts.of(changed, warnings) : List.of();
      finish(
          count(facts.size(), "fact")
              + ", "
              + count(changed.size(), "session")
              + " changed"
              + (ask ? "" : " (the " + backendName(model) + " consolidates facts only)"));

      start(ConsolidationPhase.CONSOLIDATE);
      List<ConsolidationFact> left = facts;
      boolean byModel = false;
      if (ask && (!facts.isEmpty() || !excerpts.isEmpty())) {
        List<ConsolidationFact> notTaken = askModel(model, facts, excerpts);
        if (notTaken != null) {
          byModel = true;
          left = notTaken;
        }
      }
      CategoryFiling.fileFacts(left, topics);
      CategoryFiling.fileUnsorted(unparsed, topics);
      lock.whileHeld(this::writeTopics);
      finish(whoWrote(byModel));

      start(ConsolidationPhase.PRUNE);
      int lines = lock.whileHeld(() -> pruneHoldingLock(facts, unparsed));
      List<String> removed = topics.removed;
      finish(
          (lines == 0 ? "no MEMORY.md (nothing to index)" : "MEMORY.md " + count(lines, "line"))
              + (removed.isEmpty() ? "" : ", " + count(removed.size(), "file") + " removed"));
      return new ConsolidationResult.Completed(
          agent,
          List.copyOf(filesWritten),
          List.copyOf(removed),
          facts.size(),
          changed.size(),
          lines,
          byModel,
          List.copyOf(warnings));
    }

    /**
     * The consolidate phase's report: how many topic files were written and who wrote them (a file
     * of the model's answer counts as the model's, even when facts were filed into it too).
     */
    String whoWrote(boolean modelAnswered) {
      int all = filesWritten.size();
      long model = filesWritten.stream().filter(modelFiles::contains).count();
      String who =
          all == 0
              ? ""
              : model == all
                  ? " by the model"
                  : model == 0
                      ? " deterministically"
                      : ": " + model + " by the model, " + (all - model) + " deterministically";
      return count(all, "topic file")
          + " written"
          + who
          + (modelAnswered && modelFiles.isEmpty() ? " (the model's answer wrote no file)" : "");
    }

    void start(ConsolidationPhase p) {
      phase = p;
      listener.phaseStarted(agent, p);
    }

    void finish(String detail) {
      listener.phaseFinished(agent, phase, detail);
    }

    void readTopics() throws IOException {
      if (!Files.isDirectory(folder)) {
        return;
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.md")) {
        for (Path f : files) {
          String name = f.getFileName().toString();
          if (name.equals(MemoryFile.FILE_NAME) || !LISTED_TOPIC.matcher(name).matches()) {
            continue;
          }
          switch (MemoryFileRead.of(folder, name)) {
            case MemoryFileRead.Text t -> topics.read.put(name, t.text());
            case MemoryFileRead.Missing m -> {} // removed meanwhile
            case MemoryFileRead.NotUtf8 n ->
                // Read leniently, it could be written back mangled: not consolidated at all.
                throw new MemoryFileRefused(n.reason() + " (Legio leaves it untouched)");
            case MemoryFileRead.Refused r -> {
              String note = "skipped: " + r.reason();
              warnings.add(note);
              log.warn("consolidation of {}: {}", agent, note);
            }
          }
        }
      }
    }

    /**
     * Asks the model; applies its checked answer to {@link #topics}. Returns the facts it did not
     * take, or null when it could not be used (everything goes the deterministic way).
     */
    List<ConsolidationFact> askModel(
        Model model, List<ConsolidationFact> facts, List<ConsolidationModel.Excerpt> excerpts) {
      String prompt =
          ConsolidationModel.prompt(
              agent,
              LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC),
              memory,
              topics.read,
              facts,
              excerpts);
      String answer;
      try {
        answer = model.backend().complete(ConsolidationModel.SYSTEM_PROMPT, prompt, model.model());
      } catch (RuntimeException e) {
        String note =
            "the "
                + model.backend().displayName()
                + " did not answer ("
                + e.getMessage()
                + "); consolidated deterministically";
        warnings.add(note);
        log.warn("consolidation of {}: {}", agent, note, e);
        return null;
      }
      ConsolidationModel.Answer checked;
      try {
        checked = ConsolidationModel.parse(answer, facts.size(), topics.read.keySet());
      } catch (ConsolidationModel.Unusable e) {
        String note = e.getMessage() + "; consolidated deterministically";
        warnings.add(note);
        log.warn("consolidation of {}: {}", agent, note);
        return null;
      }
      checked.refused().forEach(r -> warnings.add("refused from the model's answer: " + r));
      checked.files().forEach(t -> topics.written.put(t.name(), t));
      checked.files().forEach(t -> modelFiles.add(t.name()));
      topics.removed.addAll(checked.remove());
      List<ConsolidationFact> left = new ArrayList<>();
      for (int i = 0; i < facts.size(); i++) {
        if (!checked.consolidatedFacts().contains(i + 1)) {
          left.add(facts.get(i));
        }
      }
      return left;
    }

    /** Writes the topic files that changed; called under the folder's lock, the lock still ours. */
    private Void writeTopics() throws IOException {
      for (ConsolidationTopic t : topics.written.values()) {
        if (!t.content().equals(topics.read.get(t.name()))) {
          AtomicFile.write(folder.resolve(t.name()), t.content());
          filesWritten.add(t.name());
        }
        topics.read.put(t.name(), t.content());
      }
      return null;
    }

    /**
     * Rewrites MEMORY.md from its current text (re-read: facts appended since orient stay), removes
     * the files the model asked to remove, writes the state, and returns MEMORY.md's line count.
     * Called under the folder's lock ({@link ConsolidationLock#whileHeld}, the lock still ours),
     * which extraction's appends take too, in this process and others: an append lands either
     * before the re-read (and stays) or after the write, never in between.
     */
    private int pruneHoldingLock(List<ConsolidationFact> facts, List<MemoryFile.Unparsed> unparsed)
        throws IOException {
      int lines = rewriteIndex(facts, unparsed);
      for (String name : topics.removed) {
        Files.deleteIfExists(folder.resolve(name));
      }
      new ConsolidationState(Instant.ofEpochSecond(clock.instant().getEpochSecond())).write(folder);
      return lines;
    }

    private int rewriteIndex(List<ConsolidationFact> facts, List<MemoryFile.Unparsed> unparsed)
        throws IOException {
      Path file = folder.resolve(MemoryFile.FILE_NAME);
      String text = MemoryFolder.readFile(file).orElse(null);
      MemoryFile now = text == null ? MemoryFile.empty() : MemoryFile.parse(text);
      MemoryIndexBuilder.Built built =
          MemoryIndexBuilder.build(agent, now, facts, unparsed, topics, settings.indexMaxLines());
      if (built.movedToUnsorted()) {
        writeTopic(topics.written.get(UNSORTED));
      }
      warnings.addAll(built.warnings());
      MemoryFile out = built.file();
      if (text == null && out.index().isEmpty() && out.extracted().isEmpty()) {
        return 0; // nothing to index: no MEMORY.md is created
      }
      String rendered = out.render();
      if (!rendered.equals(text)) {
        AtomicFile.write(file, rendered);
        filesWritten.add(MemoryFile.FILE_NAME);
      }
      return out.lines().size();
    }

    void writeTopic(ConsolidationTopic t) throws IOException {
      if (!t.content().equals(topics.read.get(t.name()))) {
        AtomicFile.write(folder.resolve(t.name()), t.content());
        if (!filesWritten.contains(t.name())) {
          filesWritten.add(t.name());
        }
        topics.read.put(t.name(), t.content());
      }
    }
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  private static String backendName(Model model) {
    return model == null || model.backend() == null ? "no model" : model.backend().displayName();
  }
}
