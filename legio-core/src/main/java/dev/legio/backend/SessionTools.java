package dev.legio.backend;

import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.util.List;

/**
 * Gives each session of a back-end that runs the tool-use loop itself (the HTTP back-ends) the
 * {@link Toolset} its model may call, from the session's owner and role. The composition root
 * decides the mapping ({@code LegioApp.sessionTools}); a {@code chat} channel gets fewer tools than
 * an {@code operator}.
 *
 * <p>The toolset is asked for once, when the session opens; its {@link Toolset#tools()} are offered
 * with every request in a stable order (they are part of the cached prefix).
 */
@FunctionalInterface
public interface SessionTools {
  /** No tools: the model is offered none, and a call of any name is an error result. */
  SessionTools NONE = spec -> new Toolbox(spec.owner(), List.of());

  Toolset forSession(SessionSpec spec);
}
