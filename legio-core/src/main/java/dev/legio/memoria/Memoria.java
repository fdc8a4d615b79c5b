package dev.legio.memoria;

import dev.legio.agents.AgentDirectory;
import dev.legio.errors.Quoted;
import dev.legio.log.Names;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Legio's long-term memory (edicta, acta, commentarii) and who may do what with it. Rights come
 * from the object a caller holds, not from a name it passes:
 *
 * <ul>
 *   <li>{@link #forAgent} gives an agent its {@link AgentMemory}: it reads edicta and acta,
 *       publishes acta under its own name, and reaches its own commentarii only: no method takes
 *       another agent's name.
 *   <li>{@link #forLegatus} gives the legatus (or caesar, the operator) a {@link LegatusMemory}:
 *       everything an agent can do, plus publishing and revoking edicta, every agent's commentarii
 *       (named by the caller) and clearing entries.
 * </ul>
 *
 * Every entry records its author and time from the caller and the injected {@link Clock} (to the
 * microsecond, as every store keeps it). Where entries are kept is the {@link MemoryStore} given:
 * XML files under the castra, or the praetorium's database.
 *
 * <p>Commentarii belong to the centuriones of the castra (its {@code centuriones/} folders): a name
 * that is none is refused, listing the centuriones, whether a caller names it or an {@linkplain
 * #importFrom import} holds its commentarii (then before anything is written).
 */
public final class Memoria {
  /** The largest text of one note, in bytes of UTF-8. */
  public static final long MAX_TEXT_BYTES = 256 * 1024;

  private final MemoryStore store;
  private final AgentDirectory agents;
  private final Clock clock;

  /** Memoria in XML files under {@code castra} ({@link FileMemoryStore}). */
  public Memoria(Path castra, AgentDirectory agents, Clock clock) {
    this(new FileMemoryStore(castra), agents, clock);
  }

  /** Memoria in {@code store}. */
  public Memoria(MemoryStore store, AgentDirectory agents, Clock clock) {
    this.store = java.util.Objects.requireNonNull(store, "store");
    this.agents = agents;
    this.clock = clock;
  }

  /** The memory rights of agent {@code name}, which must be a centurio of the castra. */
  public AgentMemory forAgent(String name) {
    return new AgentMemory(this, requireCenturio(name));
  }

  /** The legatus's rights, acting as {@code caller}: {@code legatus} or {@code caesar}. */
  public LegatusMemory forLegatus(String caller) {
    if (!Names.seesEverything(caller)) {
      throw new MemoryException(
          "'" + Quoted.of(String.valueOf(caller)) + "' does not have the legatus's rights");
    }
    return new LegatusMemory(this, caller);
  }

  /**
   * The rights of whoever {@code caller} names: {@link LegatusMemory} for the legatus and caesar,
   * else {@link AgentMemory}.
   */
  public MemoryAccess as(String caller) {
    return Names.seesEverything(caller) ? forLegatus(caller) : forAgent(caller);
  }

  MemoryStore store() {
    return store;
  }

  Clock clock() {
    return clock;
  }

  /** Now, to the microsecond (what every store keeps). */
  java.time.Instant now() {
    return dev.legio.log.Timestamps.truncate(clock.instant());
  }

  /** The centurio names of the castra. */
  Set<String> centuriones() {
    return new TreeSet<>(agents.centurioNames());
  }

  String requireCenturio(String name) {
    if (name == null || name.isEmpty()) {
      throw new MemoryException("no agent given: name a centurio such as 'vorenus'");
    }
    if (!Names.isValid(name)
        || name.contains(":")
        || !agents.centurioNames().contains(name)
        || !agents.isCenturio(name)) {
      throw new MemoryException(
          "no centurio named '" + Quoted.of(name) + "'. " + knownCenturiones());
    }
    return name;
  }

  /**
   * Copies every entry of {@code source} into this memoria's store ({@code legio memory import}),
   * by {@link MemoriaTransfer}'s rules.
   *
   * @throws MemoryException when {@code source} holds commentarii of a name that is no centurio of
   *     the castra, naming them and the centuriones; nothing was written
   */
  public MemoriaTransfer.Result importFrom(MemoryStore source, boolean overwrite) {
    Set<String> centuriones = agents.centurioNames();
    List<String> strangers =
        source.commentariiOwners().stream().filter(o -> !centuriones.contains(o)).toList();
    if (!strangers.isEmpty()) {
      boolean one = strangers.size() == 1;
      throw new MemoryException(
          "nothing was imported: it holds commentarii of "
              + String.join(", ", strangers.stream().map(n -> "'" + Quoted.of(n) + "'").toList())
              + (one ? ", who is no centurio here. " : ", who are no centuriones here. ")
              + knownCenturiones()
              + " Create "
              + (one ? "that agent" : "those agents")
              + " first (centuriones/NAME/prompt.md in the castra), or take "
              + (one ? "its" : "their")
              + " centuriones/NAME/commentarii folder out of what you import.");
    }
    return MemoriaTransfer.copy(source, store, overwrite);
  }

  /** "Known centuriones: a, b.", for a refusal. */
  private String knownCenturiones() {
    return "Known centuriones: " + String.join(", ", centuriones()) + ".";
  }
}
