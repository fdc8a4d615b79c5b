package dev.legio.session;

import dev.legio.backend.Usage;
import java.time.Instant;
import java.util.UUID;

/**
 * One turn of a session, as the model saw it.
 *
 * @param owner the agent or channel
 * @param sessionId Legio's id of the session ({@link SessionRecord#sessionId()})
 * @param fresh true when this was the session's first turn
 * @param sent what was sent to the model: the context blocks and the request
 * @param reply the model's answer
 * @param model the model asked for, or null for the back-end's default
 */
public record CompletedTurn(
    String owner,
    UUID sessionId,
    boolean fresh,
    String sent,
    String reply,
    String model,
    Usage usage,
    Instant at) {}
