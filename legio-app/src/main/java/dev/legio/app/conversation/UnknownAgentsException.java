package dev.legio.app.conversation;

import dev.legio.session.KnownNames;
import java.util.List;
import java.util.Set;

/**
 * Caesar's text mentions agents that do not exist: nothing was logged. The message names them and
 * the known agents in {@link KnownNames}'s words, as {@code legio say} does; the known agents come
 * with it too so that a door can offer them.
 */
public final class UnknownAgentsException extends RuntimeException {
  private final List<String> unknown;
  private final List<String> known;

  public UnknownAgentsException(List<String> unknown, Set<String> known) {
    this(unknown, new KnownNames(known));
  }

  private UnknownAgentsException(List<String> unknown, KnownNames known) {
    super(known.unknownMentions(unknown));
    this.unknown = List.copyOf(unknown);
    this.known = List.copyOf(known.agents());
  }

  public List<String> unknown() {
    return unknown;
  }

  public List<String> known() {
    return known;
  }
}
