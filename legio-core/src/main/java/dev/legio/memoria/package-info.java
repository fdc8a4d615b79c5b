/**
 * Memoria: the three stores of entries that agents keep <em>on purpose</em>, through their tools
 * and {@code legio memory}: <b>edicta</b> (the legatus's directives, read by all), <b>acta</b>
 * (shared records, read and published by everyone) and <b>commentarii</b> (each centurio's own
 * notes). Where entries are kept is a {@link dev.legio.memoria.MemoryStore}: one XML file per entry
 * under the castra ({@code castra/edicta/}, {@code castra/acta/}, {@code
 * castra/centuriones/<name>/commentarii/}; {@link dev.legio.memoria.FileMemoryStore}), or the
 * praetorium's database ({@link dev.legio.memoria.jdbc.JdbcMemoryStore}), as {@code [memoria]
 * store} says. The XML files' format is also {@code legio memory export}'s.
 *
 * <p>Why two memory packages: this one holds what an agent decides to write down and who may read
 * or change it ({@link dev.legio.memoria.Memoria}, its rights {@link dev.legio.memoria.AgentMemory}
 * and {@link dev.legio.memoria.LegatusMemory}, the stores, the tools {@link
 * dev.legio.memoria.MemoryTools}). {@link dev.legio.longterm} holds what Legio itself learns from
 * an agent's sessions: the agent's {@code MEMORY.md}, filled by extraction and tidied by
 * consolidation ("dream"). The package is named by its Legio word because the word is what users
 * see on disk, in tool names and in the README.
 *
 * <p>Files are written atomically and serialised per folder with {@link dev.legio.files}; the
 * database store changes an entry in one transaction that holds it.
 */
package dev.legio.memoria;
