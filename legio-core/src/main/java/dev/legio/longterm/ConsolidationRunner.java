package dev.legio.longterm;

import dev.legio.backend.ModelBackend;
import dev.legio.config.LegioConfig;
import dev.legio.files.AtomicFile;
import dev.legio.transcript.TranscriptEntry;
import dev.legio.transcript.TranscriptException;
import dev.legio.transcript.TranscriptInfo;
import dev.legio.transcript.TranscriptStore;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
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
 *   <li>lock: {@link ConsolidationLock} taken (a live lock refuses; a stale one is taken over),
 *       released when the run ends, however it ends.
 * </ol>
 *
 * {@code force} skips the time and sessions gates, never the lock.
 *
 * <p>Phases, each reported to the {@link ConsolidationListener}:
 *
 * <ol>
 *   <li>orient: read {@code MEMORY.md} and the folder's topic files ({@code *.md}).
 *   <li>gather: the facts under {@code ## Auto-extracted memories}; the agent's transcripts changed
 *       since the last run, newest first, at most {@value #TRANSCRIPT_CHARS} characters in all
 *       (read only when the model will be asked).
 *   <li>consolidate: when the agent's back-end {@link ModelBackend#canComplete() can complete}, ask
 *       it for updated topic files ({@link ConsolidationModel}); facts it did not take, and all of
 *       them when it cannot answer or its answer is unusable, go deterministically into one file
 *       per category ({@code preferences.md}, {@code project.md}, ...), deduplicated (the highest
 *       confidence kept). Relative dates are made absolute ({@link ConsolidationDates}) either way.
 *       Lines of the extracted section that are not facts go to {@code unsorted.md}.
 *   <li>prune: rewrite {@code MEMORY.md} as the index (a link per existing topic file, pointers to
 *       missing files dropped), without the facts consolidated (facts appended meanwhile stay),
 *       within {@code index_max_lines}, re-reading and rewriting it under the folder's lock ({@link
 *       MemoryFolder#locked}) that extraction's appends take too, so no append is lost; then remove
 *       the files the model asked to remove, then write the state.
 * </ol>
 *
 * Every file is written atomically. A crash mid-run leaves each file whole, old or new, and the
 * state not advanced: the next run repeats the work, and deduplication makes that harmless.
 */
public final class ConsolidationRunner {
  private static final Logger log = LoggerFactory.getLogger(ConsolidationRunner.class);

  /** The most characters of transcripts one run gives the model. */
  public static final int TRANSCRIPT_CHARS = 40_000;

  /** The most characters of one transcript (its end, the most recent part). */
  static final int TRANSCRIPT_CHARS_EACH = 12_000;

  /** Where lines of MEMORY.md that fit nowhere else are kept. */
  public static final String UNSORTED = "unsorted.md";

  private static final Pattern TOPIC_FACT =
      Pattern.compile(
          "^- (.+?) \\(confidence ([01]\\.\\d\\d)(?:, (\\d{4}-\\d{2}-\\d{2}))?\\)\\s*$");
  private static final Pattern LISTED_TOPIC = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*\\.md");

  /** The model an agent's consolidation asks: its back-end and model (null: the default). */
  public record Model(ModelBackend backend, String model) {}

  private final LegioConfig.Memory settings;
  private final TranscriptStore transcripts;
  private final Function<String, Model> models;
  private final Clock clock;

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
    if (!force && last != null) {
      Duration since = Duration.between(last, now);
      if (since.compareTo(Duration.ofHours(settings.dreamMinHours())) < 0) {
        return new ConsolidationResult.Skipped(
            agent,
            ConsolidationGate.TIME,
            "last run " + ago(since) + " ago; needs " + settings.dreamMinHours() + " h",
            warnings);
      }
    }

    List<TranscriptInfo> changed;
    try {
      changed = changedSessions(agent, last);
    } catch (TranscriptException e) {
      log.error("consolidation of {}: cannot list transcripts", agent, e);
      return new ConsolidationResult.Failed(
          agent,
          ConsolidationPhase.GATHER,
          "cannot list the transcripts to count " + agent + "'s sessions: " + e.getMessage(),
          warnings);
    }
    if (!force && changed.size() < settings.dreamMinSessions()) {
      return new ConsolidationResult.Skipped(
          agent,
          ConsolidationGate.SESSIONS,
          changed.size()
              + (changed.size() == 1 ? " session" : " sessions")
              + " changed"
              + (last == null ? "" : " since the last run")
              + "; needs "
              + settings.dreamMinSessions(),
          warnings);
    }

    ConsolidationLock.Attempt attempt;
    try {
      Files.createDirectories(folder);
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
      return new ConsolidationResult.Skipped(
          agent,
          ConsolidationGate.LOCK,
          "another consolidation is running since "
              + time(held.since())
              + " ("
              + ago(Duration.between(held.since(), now))
              + " ago; its lock "
              + ConsolidationLock.FILE_NAME
              + " turns stale after "
              + settings.dreamLockStale().toMinutes()
              + " min)",
          warnings);
    }
    ConsolidationLock.Acquired acquired = (ConsolidationLock.Acquired) attempt;
    if (acquired.tookOverSince() != null) {
      String note =
          "took over a stale lock from "
              + time(acquired.tookOverSince())
              + " (a run that crashed or hung)";
      warnings.add(note);
      log.warn("consolidation of {}: {}", agent, note);
    }
    Run run = new Run(agent, folder, changed, listener, warnings);
    try (ConsolidationLock lock = acquired.lock()) {
      return run.go();
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

  /** The agent's sessions whose transcripts changed after {@code since} (all when null). */
  private List<TranscriptInfo> changedSessions(String agent, Instant since) {
    List<TranscriptInfo> out = new ArrayList<>();
    for (TranscriptInfo info : transcripts.list()) {
      if (agent.equals(info.owner()) && (since == null || info.lastModified().isAfter(since))) {
        out.add(info);
      }
    }
    return out;
  }

  private static final java.time.format.DateTimeFormatter TIME =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
          .withZone(ZoneOffset.UTC);

  static String time(Instant at) {
    return TIME.format(at);
  }

  static String ago(Duration d) {
    if (d.isNegative()) {
      return "0 min";
    }
    if (d.toHours() >= 1) {
      return d.toHours() + " h";
    }
    return d.toMinutes() + " min";
  }

  /** One run's work, phase by phase. */
  private final class Run {
    final String agent;
    final Path folder;
    final List<TranscriptInfo> changed;
    final ConsolidationListener listener;
    final List<String> warnings;
    ConsolidationPhase phase = ConsolidationPhase.ORIENT;

    MemoryFile memory;
    final Map<String, String> topics = new TreeMap<>();
    final Map<String, ConsolidationTopic> written = new LinkedHashMap<>();
    final List<String> removed = new ArrayList<>();
    final List<String> filesWritten = new ArrayList<>();

    Run(
        String agent,
        Path folder,
        List<TranscriptInfo> changed,
        ConsolidationListener listener,
        List<String> warnings) {
      this.agent = agent;
      this.folder = folder;
      this.changed = changed;
      this.listener = listener;
      this.warnings = warnings;
    }

    ConsolidationResult go() throws IOException {
      start(ConsolidationPhase.ORIENT);
      String text = MemoryFolder.readFile(folder.resolve(MemoryFile.FILE_NAME)).orElse(null);
      memory = text == null ? MemoryFile.empty() : MemoryFile.parse(text);
      readTopics();
      finish(
          text == null
              ? "no MEMORY.md yet, " + count(topics.size(), "topic file")
              : "MEMORY.md "
                  + memory.lines().size()
                  + " lines, "
                  + count(topics.size(), "topic file"));

      start(ConsolidationPhase.GATHER);
      List<ConsolidationFact> facts = memory.facts();
      List<MemoryFile.Unparsed> unparsed = memory.unparsed();
      Model model = models.apply(agent);
      boolean ask = model != null && model.backend() != null && model.backend().canComplete();
      List<ConsolidationModel.Excerpt> excerpts = ask ? excerpts() : List.of();
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
      deterministic(left);
      unsorted(unparsed);
      for (ConsolidationTopic t : written.values()) {
        Path file = folder.resolve(t.name());
        if (!t.content().equals(topics.get(t.name()))) {
          AtomicFile.write(file, t.content());
          filesWritten.add(t.name());
        }
        topics.put(t.name(), t.content());
      }
      finish(
          count(filesWritten.size(), "topic file")
              + " written"
              + (byModel ? " by the model" : " deterministically"));

      start(ConsolidationPhase.PRUNE);
      int lines = prune(facts, unparsed);
      for (String name : removed) {
        Files.deleteIfExists(folder.resolve(name));
      }
      new ConsolidationState(Instant.ofEpochSecond(clock.instant().getEpochSecond())).write(folder);
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
          if (name.equals(MemoryFile.FILE_NAME)
              || !LISTED_TOPIC.matcher(name).matches()
              || !Files.isRegularFile(f)) {
            continue;
          }
          topics.put(name, Files.readString(f));
        }
      }
    }

    /** The changed transcripts' ends, newest first, within the budget. */
    List<ConsolidationModel.Excerpt> excerpts() {
      List<ConsolidationModel.Excerpt> out = new ArrayList<>();
      int budget = TRANSCRIPT_CHARS;
      for (TranscriptInfo info : changed) {
        if (budget <= 0) {
          break;
        }
        StringBuilder text = new StringBuilder();
        try {
          for (TranscriptEntry e : transcripts.load(info.sessionId()).entries()) {
            String role = e.role();
            if (!role.equals("user") && !role.equals("assistant") && !role.equals("summary")) {
              continue;
            }
            String body = e.text();
            if (body.isBlank()) {
              continue;
            }
            Instant at = e.timestamp();
            text.append(at == null ? "" : "[" + at.atZone(ZoneOffset.UTC).toLocalDate() + "] ")
                .append(role)
                .append(": ")
                .append(body.strip())
                .append('\n');
          }
        } catch (TranscriptException e) {
          warnings.add("transcript " + info.sessionId() + " skipped: " + e.getMessage());
          continue;
        }
        int cap = Math.min(budget, TRANSCRIPT_CHARS_EACH);
        String excerpt =
            text.length() > cap ? text.substring(text.length() - cap) : text.toString();
        if (!excerpt.isBlank()) {
          out.add(new ConsolidationModel.Excerpt(info.sessionId(), excerpt));
          budget -= excerpt.length();
        }
      }
      return out;
    }

    /**
     * Asks the model; applies its checked answer to {@link #written} and {@link #removed}. Returns
     * the facts it did not take, or null when it could not be used (everything goes the
     * deterministic way).
     */
    List<ConsolidationFact> askModel(
        Model model, List<ConsolidationFact> facts, List<ConsolidationModel.Excerpt> excerpts) {
      String prompt =
          ConsolidationModel.prompt(
              agent,
              LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC),
              memory,
              topics,
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
        checked = ConsolidationModel.parse(answer, facts.size(), topics.keySet());
      } catch (ConsolidationModel.Unusable e) {
        String note = e.getMessage() + "; consolidated deterministically";
        warnings.add(note);
        log.warn("consolidation of {}: {}", agent, note);
        return null;
      }
      checked.refused().forEach(r -> warnings.add("refused from the model's answer: " + r));
      checked.files().forEach(t -> written.put(t.name(), t));
      removed.addAll(checked.remove());
      List<ConsolidationFact> left = new ArrayList<>();
      for (int i = 0; i < facts.size(); i++) {
        if (!checked.consolidatedFacts().contains(i + 1)) {
          left.add(facts.get(i));
        }
      }
      return left;
    }

    /** Puts the facts into one file per category, deduplicated, highest confidence kept. */
    void deterministic(List<ConsolidationFact> facts) {
      Map<FactCategory, List<ConsolidationFact>> byCategory = new LinkedHashMap<>();
      for (ConsolidationFact f : facts) {
        byCategory.computeIfAbsent(f.category(), c -> new ArrayList<>()).add(f);
      }
      for (Map.Entry<FactCategory, List<ConsolidationFact>> e : byCategory.entrySet()) {
        FactCategory c = e.getKey();
        removed.remove(c.topicFile());
        ConsolidationTopic before = written.get(c.topicFile());
        String base = before != null ? before.content() : topics.get(c.topicFile());
        String content = mergeFacts(base, c.topicTitle(), e.getValue());
        written.put(
            c.topicFile(),
            new ConsolidationTopic(
                c.topicFile(),
                before != null ? before.title() : c.topicTitle(),
                before != null && !before.hook().isEmpty() ? before.hook() : c.topicHook(),
                content));
      }
    }

    /** Appends the lines of the extracted section that are not facts to {@code unsorted.md}. */
    void unsorted(List<MemoryFile.Unparsed> lines) {
      if (lines.isEmpty()) {
        return;
      }
      StringBuilder add = new StringBuilder();
      LocalDate current = null;
      boolean first = true;
      for (MemoryFile.Unparsed u : lines) {
        if (first || !java.util.Objects.equals(u.day(), current)) {
          add.append('\n')
              .append(
                  u.day() == null
                      ? "## From the auto-extracted memories"
                      : "## From the session memories of " + u.day())
              .append("\n\n");
          current = u.day();
          first = false;
        }
        add.append(u.line()).append('\n');
      }
      appendUnsorted(add.toString());
    }

    void appendUnsorted(String text) {
      ConsolidationTopic before = written.get(UNSORTED);
      String base = before != null ? before.content() : topics.get(UNSORTED);
      if (base == null) {
        base = "# Unsorted\n\nLines of MEMORY.md that consolidation could not file elsewhere.\n";
      }
      if (!base.endsWith("\n")) {
        base += "\n";
      }
      written.put(
          UNSORTED,
          new ConsolidationTopic(
              UNSORTED, "Unsorted", "lines of MEMORY.md kept here by consolidation", base + text));
    }

    /**
     * Rewrites MEMORY.md from its current text (re-read: facts appended since orient stay) and
     * returns its line count. The read and the write happen under the folder's lock ({@link
     * MemoryFolder#locked}), which extraction's appends take too, in this process and others: an
     * append lands either before the re-read (and stays) or after the write, never in between.
     */
    int prune(List<ConsolidationFact> facts, List<MemoryFile.Unparsed> unparsed) {
      return MemoryFolder.of(settings.dir(), agent).locked(() -> pruneHoldingLock(facts, unparsed));
    }

    /** {@link #prune}, holding the folder's lock: extraction cannot append in between. */
    private int pruneHoldingLock(List<ConsolidationFact> facts, List<MemoryFile.Unparsed> unparsed)
        throws IOException {
      Path file = folder.resolve(MemoryFile.FILE_NAME);
      String text = MemoryFolder.readFile(file).orElse(null);
      MemoryFile now = text == null ? MemoryFile.empty() : MemoryFile.parse(text);

      Map<String, Integer> consumed = new HashMap<>();
      facts.forEach(f -> consumed.merge(key(f.day(), f.line()), 1, Integer::sum));
      unparsed.forEach(u -> consumed.merge(key(u.day(), u.line()), 1, Integer::sum));
      List<MemoryFile.Block> remaining = new ArrayList<>();
      for (MemoryFile.Block b : now.extracted()) {
        List<String> kept = new ArrayList<>();
        for (String line : b.lines()) {
          String k = key(b.day(), line);
          Integer n = consumed.get(k);
          if (n != null && n > 0) {
            consumed.put(k, n - 1);
          } else {
            kept.add(line);
          }
        }
        if (!kept.isEmpty()) {
          remaining.add(new MemoryFile.Block(b.day(), b.heading(), kept));
        }
      }

      List<MemoryFile.IndexEntry> index = index(now);
      String title = now.title() != null ? now.title() : "# Memory — " + agent;
      MemoryFile out = new MemoryFile(title, index, now.preamble(), now.sections(), remaining);
      int max = settings.indexMaxLines();
      if (out.lines().size() > max && (!now.preamble().isEmpty() || !now.sections().isEmpty())) {
        // Move the free text to unsorted.md; the index and new facts stay.
        StringBuilder moved =
            new StringBuilder("\n## Moved from MEMORY.md (over ").append(max).append(" lines)\n\n");
        now.preamble().forEach(l -> moved.append(l).append('\n'));
        if (!now.sections().isEmpty()) {
          moved.append('\n');
          now.sections().forEach(l -> moved.append(l).append('\n'));
        }
        appendUnsorted(moved.toString());
        writeTopic(written.get(UNSORTED));
        index = index(now);
        out = new MemoryFile(title, index, List.of(), List.of(), remaining);
      }
      int over = out.lines().size() - max;
      if (over > 0 && !index.isEmpty()) {
        int keep = Math.max(0, index.size() - over - 1);
        List<MemoryFile.IndexEntry> shown = new ArrayList<>(index.subList(0, keep));
        shown.add(
            new MemoryFile.IndexEntry(
                "More topics",
                "#",
                (index.size() - keep) + " more topic files in this folder are not listed"));
        warnings.add(
            "MEMORY.md would pass "
                + max
                + " lines: "
                + (index.size() - keep)
                + " topic files are left out of the index (merge some)");
        out = new MemoryFile(title, shown, out.preamble(), out.sections(), remaining);
      }
      if (text == null && index.isEmpty() && remaining.isEmpty()) {
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
      if (!t.content().equals(topics.get(t.name()))) {
        AtomicFile.write(folder.resolve(t.name()), t.content());
        if (!filesWritten.contains(t.name())) {
          filesWritten.add(t.name());
        }
        topics.put(t.name(), t.content());
      }
    }

    /**
     * One entry per topic file that will exist: the existing index's order first (its title and
     * hook unless this run wrote the file), then new files by name. Pointers to missing files are
     * dropped.
     */
    List<MemoryFile.IndexEntry> index(MemoryFile now) {
      Set<String> exists = new java.util.TreeSet<>(topics.keySet());
      removed.forEach(exists::remove);
      List<MemoryFile.IndexEntry> out = new ArrayList<>();
      Set<String> listed = new java.util.HashSet<>();
      for (MemoryFile.IndexEntry e : now.index()) {
        if (exists.contains(e.file()) && listed.add(e.file())) {
          ConsolidationTopic t = written.get(e.file());
          out.add(
              t != null && !t.hook().isEmpty()
                  ? new MemoryFile.IndexEntry(e.title(), e.file(), t.hook())
                  : e);
        }
      }
      for (String name : exists) {
        if (listed.add(name)) {
          out.add(entryFor(name));
        }
      }
      return out;
    }

    MemoryFile.IndexEntry entryFor(String name) {
      ConsolidationTopic t = written.get(name);
      if (t != null) {
        return new MemoryFile.IndexEntry(t.title(), name, t.hook());
      }
      for (FactCategory c : FactCategory.values()) {
        if (c.topicFile().equals(name)) {
          return new MemoryFile.IndexEntry(c.topicTitle(), name, c.topicHook());
        }
      }
      String content = topics.getOrDefault(name, "");
      String title = name.substring(0, name.length() - 3);
      for (String line : content.split("\n", 20)) {
        if (line.startsWith("# ")) {
          title = line.substring(2);
          break;
        }
      }
      return new MemoryFile.IndexEntry(
          ConsolidationTopic.oneLine(title, ConsolidationTopic.MAX_TITLE_CHARS), name, "");
    }
  }

  private static String key(LocalDate day, String line) {
    return day + "\u0000" + line;
  }

  /**
   * {@code base} (a category topic file, or null for a new one) with the facts merged in: a fact
   * whose text (dates made absolute) matches a bullet already there replaces it only when more
   * confident; others are appended as {@code - text (confidence 0.90, 2026-11-21)}. Other lines of
   * the file are kept.
   */
  static String mergeFacts(String base, String title, List<ConsolidationFact> facts) {
    List<String> lines = new ArrayList<>();
    if (base == null || base.isBlank()) {
      lines.add("# " + title);
      lines.add("");
    } else {
      lines.addAll(List.of(base.split("\r?\n", -1)));
      while (!lines.isEmpty() && lines.getLast().isBlank()) {
        lines.removeLast();
      }
    }
    Map<String, Integer> at = new HashMap<>();
    Map<String, Double> confidence = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = TOPIC_FACT.matcher(lines.get(i));
      if (m.matches()) {
        String k = ConsolidationFact.dedupeKey(m.group(1));
        at.putIfAbsent(k, i);
        confidence.putIfAbsent(k, Double.parseDouble(m.group(2)));
      }
    }
    for (ConsolidationFact f : facts) {
      String text = f.absoluteText().replaceAll("\\s+", " ").strip();
      String line =
          "- "
              + text
              + " (confidence "
              + String.format(Locale.ROOT, "%.2f", f.confidence())
              + (f.day() == null ? "" : ", " + f.day())
              + ")";
      String k = ConsolidationFact.dedupeKey(text);
      Integer i = at.get(k);
      if (i == null) {
        at.put(k, lines.size());
        confidence.put(k, f.confidence());
        lines.add(line);
      } else if (f.confidence() > confidence.get(k)) {
        lines.set(i, line);
        confidence.put(k, f.confidence());
      }
    }
    return String.join("\n", lines) + "\n";
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  private static String backendName(Model model) {
    return model == null || model.backend() == null ? "no model" : model.backend().displayName();
  }
}
