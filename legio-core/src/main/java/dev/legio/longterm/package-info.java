/**
 * Long-term memory: each agent's folder under {@code [memory] dir} ({@code <dir>/<agent>/}), with
 * its {@code MEMORY.md} (an index of topic files, then facts extracted from its sessions) and its
 * topic files. Legio writes it, not the agent: a new session's system prompt carries it.
 *
 * <p>Why two memory packages: {@link dev.legio.memoria} holds the entries agents write on purpose
 * through their tools (edicta, acta, commentarii). This package holds what Legio learns by itself.
 * "Long-term" is the plain name users know from other agent tools (Claude Code's {@code
 * MEMORY.md}).
 *
 * <p>Where each rule is:
 *
 * <ul>
 *   <li>{@code MEMORY.md}'s format, reading and writing it: {@link dev.legio.longterm.MemoryFile}
 *       (the one model of the file); the folder, its names and its lock: {@link
 *       dev.legio.longterm.MemoryFolder}.
 *   <li>extraction (facts after enough conversation): its gates {@code ExtractionGates}, the turn
 *       listener {@link dev.legio.longterm.MemoryExtractor}, {@link
 *       dev.legio.longterm.ExtractionState}, {@link dev.legio.longterm.FactsAnswer}.
 *   <li>consolidation ("dream"): the gates {@link dev.legio.longterm.ConsolidationGates}, the
 *       transcript excerpts {@link dev.legio.longterm.TranscriptExcerpts}, filing facts by category
 *       {@link dev.legio.longterm.CategoryFiling}, the index {@link
 *       dev.legio.longterm.MemoryIndexBuilder}, the phases {@link
 *       dev.legio.longterm.ConsolidationRunner}, its lock {@link
 *       dev.legio.longterm.ConsolidationLock}, the hourly check {@link
 *       dev.legio.longterm.DreamScheduler}.
 * </ul>
 */
package dev.legio.longterm;
