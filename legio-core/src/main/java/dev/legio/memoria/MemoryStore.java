package dev.legio.memoria;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where memoria's entries are kept: the seam between {@link Memoria}'s rules (rights, names, sizes,
 * append-only notes, edicta used once) and storage. Two stores satisfy it: {@link FileMemoryStore}
 * (XML files under the castra, {@code [memoria] store = "files"}) and {@code
 * dev.legio.memoria.jdbc.JdbcMemoryStore} (the praetorium's database, {@code store = "database"}).
 * A store checks no rights and trusts its caller to pass valid names.
 *
 * <p>Every store keeps these rules, which {@code MemoryStoreContract} checks on each:
 *
 * <ul>
 *   <li>{@link #update} is atomic per entry against every other writer, in this process and in
 *       others (on other nodes, for the database): {@code change} sees the entry as the last
 *       committed change left it, and its result replaces it whole, or nothing changes. Two writers
 *       of one entry are serialised, never merged blindly: no note is ever lost, and the rule
 *       {@code change} applies (an edictum name is used once) holds across nodes, so the second of
 *       two publishers of one edictum is refused.
 *   <li>Readers see only committed changes: an entry whole as of one change, never part of one.
 *   <li>Lists are ordered by name ({@link #BY_NAME}); an entry's notes keep their order.
 *   <li>Times are kept to the microsecond, as {@link MemoryXml} writes them.
 * </ul>
 */
public interface MemoryStore {
  /** The order of lists: by name, as Java compares strings (names are ASCII). */
  Comparator<MemoryEntry> BY_NAME = Comparator.comparing(MemoryEntry::name);

  /**
   * Every readable entry of a store, by name.
   *
   * @param centurio the owner, for commentarii; null for edicta and acta
   */
  List<MemoryEntry> list(MemoryKind kind, String centurio);

  /** The entry, if it exists. */
  Optional<MemoryEntry> find(MemoryKind kind, String centurio, String name);

  /**
   * Changes one entry atomically: {@code change} gets the current entry (null when there is none)
   * and returns the new one; throwing from it changes nothing. Returns the new entry.
   */
  MemoryEntry update(
      MemoryKind kind, String centurio, String name, UnaryOperator<MemoryEntry> change);

  /**
   * Deletes {@code name}, or every entry of the store when it is null; returns the names deleted.
   */
  List<String> delete(MemoryKind kind, String centurio, String name);

  /**
   * The agents that have commentarii in this store, by name, including agents no longer in the
   * castra (so that an export loses none).
   */
  List<String> commentariiOwners();
}
