package dev.legio.session;

import dev.legio.backend.BackendEvent;

/** Receives what agents report while they work (status lines, text, tool calls). Thread-safe. */
@FunctionalInterface
public interface DispatchListener {
  DispatchListener NONE = (agent, event) -> {};

  void onEvent(String agent, BackendEvent event);
}
