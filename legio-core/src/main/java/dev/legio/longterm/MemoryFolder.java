package dev.legio.longterm;

import dev.legio.errors.Quoted;
import dev.legio.files.AtomicFile;
import dev.legio.files.FolderLock;
import dev.legio.log.Names;
import dev.legio.log.PraetoriumXml;
import dev.legio.session.MemoryPrompt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent's long-term memory folder, {@code <[memory] dir>/<agent>/}: its {@code MEMORY.md}
 * (format: {@link MemoryFile}), its topic files and its state files.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only agents have a folder: the name must be a valid agent name ({@link Names}, no channel
 *       {@code :id}, not {@code caesar} or {@code all}); anything else is refused with {@link
 *       IllegalArgumentException} before any file is touched, so a name can never leave the memory
 *       folder.
 *   <li>{@link #append} adds facts as {@link MemoryFile#appendFacts} describes. A fact already in
 *       the file (same category and text, case and white space ignored) is not added again.
 *   <li>Changes are serialised per folder by its {@link FolderLock} (between threads by a lock,
 *       between processes by an OS file lock on the folder's {@code .lock} file, as memoria's
 *       stores are); each file is replaced whole ({@link AtomicFile}): a reader sees the old file
 *       or the new one, never part of one.
 *   <li>A {@code MEMORY.md} that is not UTF-8 is reported, never overwritten. A new session's
 *       prompt still carries it ({@link #promptBlock}), each byte that is not UTF-8 read as U+FFFD,
 *       with a warning in the log naming the file: an agent does not lose its memory to one Latin-1
 *       letter.
 *   <li>Files are read only as {@link MemoryFileRead} allows: a symbolic link is never followed;
 *       reading a {@code MEMORY.md} or state file that is one fails, naming it.
 * </ul>
 */
public final class MemoryFolder {
  private static final Logger log = LoggerFactory.getLogger(MemoryFolder.class);

  public static final String MEMORY_FILE = MemoryFile.FILE_NAME;
  static final String LOCK_FILE = FolderLock.LOCK_FILE;

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
              + Quoted.of(name)
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
      throw new IllegalArgumentException("'" + Quoted.of(name) + "' is not a file of " + folder);
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

  /**
   * The content of {@code MEMORY.md} for a prompt: as {@link #read}, but a file that is not UTF-8
   * is taken with U+FFFD for each byte that is not, and a warning naming it is logged (an agent
   * keeps its memory for one mangled letter; the file itself is never rewritten).
   *
   * @throws UncheckedIOException when it cannot be read (a link, say)
   */
  String readForPrompt() {
    try {
      if (MemoryFileRead.of(memoryFile()) instanceof MemoryFileRead.NotUtf8 n) {
        log.warn("{}: its session gets the memory with U+FFFD in its place", n.reason());
        return n.text();
      }
    } catch (IOException e) {
      // read() says what is wrong
    }
    return read();
  }

  /** Every fact line of {@code MEMORY.md}, in file order (other lines are not facts). */
  public List<ExtractedFact> facts() {
    return MemoryFile.parseFacts(read());
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
    MemoryFile.parseFacts(current).forEach(f -> known.add(f.key()));
    List<ExtractedFact> fresh = new ArrayList<>();
    for (ExtractedFact fact : facts) {
      if (known.add(fact.key())) {
        fresh.add(fact);
      }
    }
    if (!fresh.isEmpty()) {
      writeAtomically(MEMORY_FILE, MemoryFile.appendFacts(current, agent, day, fresh));
    }
    return new Appended(List.copyOf(fresh), facts.size() - fresh.size());
  }

  /**
   * {@code MEMORY.md}'s first {@code maxLines} lines (at most {@code maxChars} characters, cut at a
   * line's end) as a {@code <memory agent="NAME">} block for a system prompt, its text escaped so
   * that nothing in it can close the block; empty when the agent has no memory yet.
   */
  public String promptBlock(int maxLines, int maxChars) {
    String content = readForPrompt();
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
    AtomicFile.write(file(name), content);
  }

  /**
   * The folder's file {@code name} as text, if it exists.
   *
   * @throws MemoryFileRefused when it is a link, not a regular file, or not UTF-8
   * @throws UncheckedIOException when it cannot be read
   */
  public Optional<String> readFile(String name) {
    return readFile(file(name));
  }

  static Optional<String> readFile(Path file) {
    try {
      return switch (MemoryFileRead.of(file)) {
        case MemoryFileRead.Text t -> Optional.of(t.text());
        case MemoryFileRead.Missing m -> Optional.empty();
        case MemoryFileRead.Refused r -> throw new MemoryFileRefused(r.reason());
        case MemoryFileRead.NotUtf8 n ->
            throw new MemoryFileRefused(n.reason() + " (Legio leaves it untouched)");
      };
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
