package dev.legio.session;

import dev.legio.backend.ModelBackend;

/**
 * What an owner's session is opened with: the back-end, the system prompt, the model and the role.
 * The back-end kind, {@code promptHash} and {@code rosterHash} are what the {@link RebuildPolicy}
 * compares with the stored session; the prompt text itself is not compared (the long-term memory
 * added to it when a session opens never rebuilds a live session).
 *
 * @param backend the back-end the owner's sessions run on
 * @param systemPrompt the prompt file's body, with the roster (legatus) or channel line added
 * @param model the model asked for; null for the back-end's default
 * @param role {@link dev.legio.backend.SessionSpec#OPERATOR_ROLE} or a channel's role
 * @param promptHash hex SHA-256 of the prompt file
 * @param rosterHash for the legatus, hex SHA-256 of the roster; null otherwise
 */
public record SessionShape(
    ModelBackend backend,
    String systemPrompt,
    String model,
    String role,
    String promptHash,
    String rosterHash) {}
