package dev.legio.session;

import dev.legio.backend.BackendEvent;

/**
 * Told of what the engine's sessions do, for live views (the server's {@code GET /events}): an
 * owner's activity changing ({@code idle}, {@code working}, {@code error}), a session rebuilt with
 * its reason, a long session condensed, and every back-end event of every turn (status lines,
 * compactions), whoever sent the request. Registered with {@link
 * SessionEngine#setSessionEventListener}.
 *
 * <p>Called on the turn's own thread: it must return at once and never block (hand the event on to
 * a queue). What it throws is logged and changes nothing about the turn.
 */
public interface SessionEventListener {
  SessionEventListener NONE = new SessionEventListener() {};

  /** The owner's activity in this process changed. */
  default void activityChanged(String owner, String activity) {}

  /** The owner's session was closed for {@code reason} and a new one will open in its place. */
  default void rebuilt(String owner, RebuildReason reason) {}

  /**
   * The owner's long session was condensed ({@link SessionCondenser}): its back-end conversation
   * {@code previousId}, {@code tokens} long, was left for {@code newId}, which starts from a brief.
   */
  default void condensed(String owner, String previousId, String newId, long tokens) {}

  /** A back-end event of one of the owner's turns (a status line, a compaction, text...). */
  default void backendEvent(String owner, BackendEvent event) {}
}
