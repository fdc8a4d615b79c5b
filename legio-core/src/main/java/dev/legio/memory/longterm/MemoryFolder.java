package dev.legio.memory.longterm;

import dev.legio.log.Names;
import dev.legio.log.PraetoriumXml;
import dev.legio.memory.FolderLock;
import dev.legio.session.MemoryPrompt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One agent's long-term memory folder, {@code <[memory] dir>/<agent>/}, and its {@code MEMORY.md}:
 * an index of topic files, then the facts extracted from its sessions.
 *
 * <pre>
 * # Memory — vorenus
 *
 * - [Roads](roads.md) — the northern roads and their state
 *
 * ## Auto-extracted memories
 *
 * ### Session memories — 2026-11-21
 * - [preference] Caesar wants scouting reports as bullet points (confidence 0.90)
 * </pre>
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only agents have a folder: the name must be a valid agent name ({@link Names}, no channel
 *       {@code :id}, not {@code caesar} or {@code all}); anything else is refused with {@link
 *       IllegalArgumentException} before any file is touched, so a name can never leave the memory
 *       folder.
 *   <li>{@link #append} adds facts under {@value #AUTO_SECTION} (the section is created at the end
 *       when missing, the file with a {@code # Memory — agent} title when missing), below a {@code
 *       ### Session memories — YYYY-MM-DD} heading for the day: the day's heading is reused when it
 *       is the section's last one, else a new one is added at the end of the section. Every other
 *       line of the file is kept as it was (line endings become {@code \n}).
 *   <li>A fact already in the file (same category and text, case and white space ignored) is not
 *       added again.
 *   <li>Changes are serialised per folder: between threads by a lock, between processes by an OS
 *       file lock on the folder's {@code .lock} file (as {@code dev.legio.memory.MemoryStore}
 *       does); each file is written to a temporary file, forced to disk and renamed over the old
 *       one ({@code ATOMIC_MOVE}): a reader sees the old file or the new one, never part of one.
 *   <li>A {@code MEMORY.md} that is not UTF-8 is reported, never overwritten.
 * </ul>
 */
public final class MemoryFolder {
  public static final String MEMORY_FILE = "MEMORY.md";
  public static final String AUTO_SECTION = "## Auto-extracted memories";
  public static final String DAY_HEADING = "### Session memories — ";
  static final String LOCK_FILE = FolderLock.LOCK_FILE;

  /**
   * A fact line as {@link ExtractedFact#line()} writes it; runs of spaces around the text (a hand
   * edit) are allowed.
   */
  private static final Pattern FACT =
      Pattern.compile(
          "^- \\[([a-z]+)\\]\\s+(.+?)\\s+\\(confidence\\s+([0-9]+(?:\\.[0-9]+)?)\\)\\s*$");

  private final String agent;
  private final Path folder;

  private MemoryFolder(String agent, Path folder) {
    this.agent = agent;
    this.folder = folder;
  }

  /**
   * The folder of {@code agent} under {@code memoryDir} ({@code [memory] dir}). Creates nothing.
   *
   * @throws IllegalArgumentException when {@code agent} is not an agent's name
   */
  public static MemoryFolder of(Path memoryDir, String agent) {
    requireAgentName(agent);
    Path root = memoryDir.toAbsolutePath().normalize();
    Path folder = root.resolve(agent).normalize();
    if (!root.equals(folder.getParent())) {
      // Unreachable with a valid name; a second wall in case the rules change.
      throw new IllegalArgumentException("agent name '" + agent + "' leaves " + root);
    }
    return new MemoryFolder(agent, folder);
  }

  /** True for a name that has a memory folder: the legatus and centuriones, never a channel. */
  public static boolean isAgentName(String name) {
    return Names.isValid(name)
        && !name.contains(":")
        && !name.equals(Names.CAESAR)
        && !name.equals(Names.ALL);
  }

  /** Returns {@code name} if it is an agent's name, else throws saying what is allowed. */
  public static String requireAgentName(String name) {
    if (!isAgentName(name)) {
      throw new IllegalArgumentException(
          "'"
              + printable(name)
              + "' is not an agent's name, so it has no long-term memory: use the legatus or a"
              + " centurio's name (a lowercase letter, then lowercase letters, digits, '-' or '_',"
              + " at most 32; no channel ':id')");
    }
    return name;
  }

  public String agent() {
    return agent;
  }

  public Path folder() {
    return folder;
  }

  public Path memoryFile() {
    return folder.resolve(MEMORY_FILE);
  }

  /** A file of this folder by its plain name (no separators, not {@code .} or {@code ..}). */
  public Path file(String name) {
    Path file = folder.resolve(name).normalize();
    if (name.isEmpty() || !folder.equals(file.getParent())) {
      throw new IllegalArgumentException("'" + printable(name) + "' is not a file of " + folder);
    }
    return file;
  }

  /**
   * The content of {@code MEMORY.md}; empty when there is none.
   *
   * @throws UncheckedIOException when it cannot be read or is not UTF-8
   */
  public String read() {
    return readFile(memoryFile()).orElse("");
  }

  /** Every fact line of {@code MEMORY.md}, in file order (other lines are not facts). */
  public List<ExtractedFact> facts() {
    return parseFacts(read());
  }

  /** What {@link #append} did. */
  public record Appended(List<ExtractedFact> written, int duplicates) {}

  /**
   * Appends {@code facts} under the day's heading, leaving out those already in the file (and
   * repeats within {@code facts}); writes nothing when none is left.
   *
   * @param day the day of the session's turn (UTC), for the heading
   */
  public Appended append(LocalDate day, List<ExtractedFact> facts) {
    return locked(() -> appendHoldingLock(day, facts));
  }

  /** {@link #append}, for a caller that holds the folder's lock ({@link #locked}). */
  Appended appendHoldingLock(LocalDate day, List<ExtractedFact> facts) throws IOException {
    String current = readFile(memoryFile()).orElse("");
    Set<String> known = new HashSet<>();
    parseFacts(current).forEach(f -> known.add(f.key()));
    List<ExtractedFact> fresh = new ArrayList<>();
    for (ExtractedFact fact : facts) {
      if (known.add(fact.key())) {
        fresh.add(fact);
      }
    }
    if (!fresh.isEmpty()) {
      writeAtomically(MEMORY_FILE, appendTo(current, agent, day, fresh));
    }
    return new Appended(List.copyOf(fresh), facts.size() - fresh.size());
  }

  /**
   * {@code MEMORY.md}'s first {@code maxLines} lines (at most {@code maxChars} characters, cut at a
   * line's end) as a {@code <memory agent="NAME">} block for a system prompt, its text escaped so
   * that nothing in it can close the block; empty when the agent has no memory yet.
   */
  public String promptBlock(int maxLines, int maxChars) {
    String content = read();
    if (content.isBlank()) {
      return "";
    }
    List<String> lines = content.strip().lines().toList();
    StringBuilder kept = new StringBuilder();
    int count = 0;
    for (String line : lines) {
      if (count >= maxLines || kept.length() + line.length() + 1 > maxChars) {
        break;
      }
      kept.append(line).append('\n');
      count++;
    }
    StringBuilder out = new StringBuilder("<memory agent=\"");
    PraetoriumXml.escapeAttribute(agent, out);
    out.append("\">\n");
    PraetoriumXml.escapeText(kept.toString(), out);
    if (count < lines.size()) {
      out.append("(")
          .append(lines.size() - count)
          .append(" more lines of ")
          .append(MEMORY_FILE)
          .append(" left out)\n");
    }
    return out.append("</memory>").toString();
  }

  /** The most of {@code MEMORY.md} a system prompt carries, in characters. */
  public static final int PROMPT_MAX_CHARS = 25_000;

  /**
   * The agents' memory for their new sessions' system prompts: a short introduction and {@link
   * #promptBlock} of at most {@code maxLines} lines ({@code [memory] index_max_lines}) and {@value
   * #PROMPT_MAX_CHARS} characters; nothing for an agent with no {@code MEMORY.md}.
   */
  public static MemoryPrompt systemPrompt(Path memoryDir, int maxLines) {
    return agent -> {
      String block = of(memoryDir, agent).promptBlock(maxLines, PROMPT_MAX_CHARS);
      return block.isEmpty()
          ? ""
          : "Your long-term memory: what earlier sessions taught you (from "
              + MEMORY_FILE
              + "; it may be out of date).\n"
              + block;
    };
  }

  /** Something done with files of the folder, under its lock. */
  public interface FolderAction<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code action} holding the folder's lock (a lock per folder in this JVM, and an OS lock on
   * its {@code .lock} file for other processes); creates the folder first.
   *
   * @throws UncheckedIOException when the folder cannot be created or locked, or the action fails
   */
  public <T> T locked(FolderAction<T> action) {
    try {
      return FolderLock.run(folder, action::run);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write in " + folder + ": " + e.getMessage(), e);
    }
  }

  /**
   * Replaces the folder's file {@code name} with {@code content} atomically (temporary file, forced
   * to disk, {@code ATOMIC_MOVE}). Call it inside {@link #locked}.
   */
  public void writeAtomically(String name, String content) throws IOException {
    writeFileAtomically(file(name), content);
  }

  /**
   * Replaces {@code target} with {@code content} atomically: a temporary file beside it, forced to
   * disk, renamed over it ({@code ATOMIC_MOVE}). A reader sees the old file or the new one, never
   * part of one; a crash leaves the old file (and at most a stray {@code .tmp}).
   */
  static void writeFileAtomically(Path target, String content) throws IOException {
    Path folder = target.getParent();
    Files.createDirectories(folder);
    String name = target.getFileName().toString();
    Path temp = Files.createTempFile(folder, "." + name + ".", ".tmp");
    try {
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        out.force(true);
      }
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the file system cannot rename atomically in " + folder, e);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /**
   * The folder's file {@code name} as text, if it exists.
   *
   * @throws UncheckedIOException when it cannot be read or is not UTF-8
   */
  public Optional<String> readFile(String name) {
    return readFile(file(name));
  }

  static Optional<String> readFile(Path file) {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (CharacterCodingException e) {
      throw new UncheckedIOException(
          file + " is not valid UTF-8; fix or move it (Legio leaves it untouched)", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Every fact line of a {@code MEMORY.md} text. */
  static List<ExtractedFact> parseFacts(String content) {
    List<ExtractedFact> facts = new ArrayList<>();
    for (String line : content.lines().toList()) {
      Optional<FactLine> fact = parseFactLine(line);
      if (fact.isEmpty()) {
        continue;
      }
      try {
        facts.add(
            new ExtractedFact(fact.get().category(), fact.get().text(), fact.get().confidence()));
      } catch (IllegalArgumentException e) {
        // a text that is empty once cleaned: not a fact Legio wrote
      }
    }
    return facts;
  }

  /**
   * A fact line's parts as written.
   *
   * @param text the text between the category and the confidence, stripped but otherwise as written
   *     (not shortened or cleaned as {@link ExtractedFact} does)
   */
  record FactLine(FactCategory category, String text, double confidence) {}

  /**
   * The fact of one line of {@code MEMORY.md} ({@code - [preference] text (confidence 0.90)}):
   * empty when the line is not one, its category is none of the five, or its confidence is not from
   * 0 to 1. The one reader of fact lines, for extraction and consolidation.
   */
  static Optional<FactLine> parseFactLine(String line) {
    Matcher m = FACT.matcher(line);
    if (!m.matches()) {
      return Optional.empty();
    }
    Optional<FactCategory> category = FactCategory.fromLabel(m.group(1));
    double confidence = Double.parseDouble(m.group(3));
    if (category.isEmpty() || confidence > 1.0) {
      return Optional.empty();
    }
    return Optional.of(new FactLine(category.get(), m.group(2).strip(), confidence));
  }

  /**
   * {@code content} with {@code facts} appended under the day's heading, as {@link #append}
   * describes.
   */
  static String appendTo(String content, String agent, LocalDate day, List<ExtractedFact> facts) {
    List<String> lines = new ArrayList<>(content.lines().toList());
    String heading = DAY_HEADING + day;
    List<String> factLines = facts.stream().map(ExtractedFact::line).toList();
    if (content.isBlank()) {
      lines.clear();
      lines.add("# Memory — " + agent);
    }
    int section = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(AUTO_SECTION)) {
        section = i;
      }
    }
    if (section < 0) {
      trimTrailingBlanks(lines);
      lines.add("");
      lines.add(AUTO_SECTION);
      lines.add("");
      lines.add(heading);
      lines.addAll(factLines);
      return String.join("\n", lines) + "\n";
    }
    // The section runs to the next heading of level 1 or 2, or to the end.
    int end = lines.size();
    for (int i = section + 1; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.startsWith("# ") || l.startsWith("## ")) {
        end = i;
        break;
      }
    }
    int lastHeading = -1;
    for (int i = section + 1; i < end; i++) {
      if (lines.get(i).startsWith("### ")) {
        lastHeading = i;
      }
    }
    int lastContent = section;
    for (int i = end - 1; i > section; i--) {
      if (!lines.get(i).isBlank()) {
        lastContent = i;
        break;
      }
    }
    List<String> insert = new ArrayList<>();
    if (lastHeading < 0 || !lines.get(lastHeading).strip().equals(heading)) {
      insert.add("");
      insert.add(heading);
    }
    insert.addAll(factLines);
    boolean followed = end < lines.size();
    if (followed) {
      insert.add("");
    }
    // Drop the blank lines between the section's content and what follows; the insert ends with
    // its own blank line when something follows.
    lines.subList(lastContent + 1, end).clear();
    lines.addAll(lastContent + 1, insert);
    return String.join("\n", lines) + "\n";
  }

  private static void trimTrailingBlanks(List<String> lines) {
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
  }

  private static String printable(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder();
    s.codePoints()
        .limit(40)
        .forEach(
            cp -> {
              if (cp < 0x20 || cp == 0x7f) {
                out.append(String.format("\\u%04x", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }
}
