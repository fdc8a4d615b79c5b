package dev.legio.session;

import dev.legio.backend.BackendEvent;
import dev.legio.log.Message;

/**
 * Receives what becomes of a request while its agents work: that it is in the log, then what they
 * report (status lines, text, tool calls). Thread-safe.
 */
@FunctionalInterface
public interface DispatchListener {
  DispatchListener NONE = (agent, event) -> {};

  void onEvent(String agent, BackendEvent event);

  /**
   * The request is in the log (committed, or logged before under its request key), its turns queued
   * and none run yet; called once, on the caller's thread, before any {@link #onEvent}. What it
   * throws is logged and ignored: the turns run all the same.
   */
  default void requestLogged(Message request) {}
}
