package dev.legio.agents;

import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One agent as its {@code prompt.md} describes it: the legatus ({@code castra/legatus/prompt.md})
 * or a centurio ({@code castra/centuriones/<name>/prompt.md}).
 *
 * <p>The file starts with YAML front matter between two {@code ---} lines; the rest is the prompt:
 *
 * <pre>
 * ---
 * description: Technology analysis specialist.
 * model: claude-sonnet-4-5        # optional
 * history_window: 20              # optional, overrides legio.toml
 * max_input_tokens: 100000        # optional, overrides the session default
 * ---
 * # Vorenus
 * You are ...
 * </pre>
 *
 * @param name the folder name ({@code legatus} for the legatus)
 * @param description one line for the roster; empty when the front matter has none
 * @param model the model to use, or null for the back-end's default
 * @param backend the back-end kind this agent's sessions use ({@code ollama}, ...), or null for
 *     {@code [backend] kind}
 * @param prompt the text after the front matter (the system prompt)
 * @param promptHash hex SHA-256 of the whole file's bytes
 * @param file the prompt file
 */
public record AgentProfile(
    String name,
    String description,
    String model,
    String backend,
    OptionalInt historyWindow,
    OptionalLong maxInputTokens,
    String prompt,
    String promptHash,
    Path file) {}
