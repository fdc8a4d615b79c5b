package dev.legio.session;

import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place the engine's parts tell the registered {@link SessionEventListener} what sessions
 * do: an owner's activity, a rebuild, a back-end event. A listener that throws is logged and
 * changes nothing about the turn; with no listener ({@link SessionEventListener#NONE}) nothing is
 * done at all.
 */
final class SessionEvents {
  private static final Logger log = LoggerFactory.getLogger(SessionEvents.class);
  private volatile SessionEventListener listener = SessionEventListener.NONE;

  void register(SessionEventListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Sets {@code slot}'s activity and tells the listener. */
  void activity(OwnerSlot slot, Activity activity) {
    slot.activity = activity;
    tell(l -> l.activityChanged(slot.name(), activity.label()));
  }

  void rebuilt(String owner, RebuildReason reason) {
    tell(l -> l.rebuilt(owner, reason));
  }

  void condensed(String owner, String previousId, String newId, long tokens) {
    tell(l -> l.condensed(owner, previousId, newId, tokens));
  }

  /** {@code listener}, with every event also told to the registered session-event listener. */
  DispatchListener alsoTelling(DispatchListener dispatch) {
    return (agent, event) -> {
      tell(l -> l.backendEvent(agent, event));
      dispatch.onEvent(agent, event);
    };
  }

  private void tell(Consumer<SessionEventListener> tell) {
    SessionEventListener l = listener;
    if (l == SessionEventListener.NONE) {
      return;
    }
    try {
      tell.accept(l);
    } catch (RuntimeException e) {
      log.warn("a session event listener failed (the session goes on)", e);
    }
  }
}
