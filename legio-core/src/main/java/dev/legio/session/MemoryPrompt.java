package dev.legio.session;

/**
 * An agent's long-term memory as the system prompt of its new sessions carries it (see {@code
 * dev.legio.longterm.MemoryFolder#systemPrompt}). The engine asks only when it opens a session, and
 * only for agents (the legatus, centuriones), never for channels. What it returns is appended to
 * the prompt file's text; it does not count towards the prompt's hash, so a change of memory never
 * rebuilds a live session: the next new one carries it.
 */
@FunctionalInterface
public interface MemoryPrompt {
  MemoryPrompt NONE = agent -> "";

  /**
   * The text to add to {@code agent}'s system prompt, already escaped for it; empty for none. What
   * it throws is logged and the session opens without memory.
   */
  String forAgent(String agent);
}
