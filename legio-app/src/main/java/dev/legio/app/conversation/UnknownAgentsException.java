package dev.legio.app.conversation;

import java.util.List;
import java.util.Set;

/**
 * Caesar's text mentions agents that do not exist: nothing was logged. The message names them; the
 * known agents come with it so that a door can offer them.
 */
public final class UnknownAgentsException extends RuntimeException {
  private final List<String> unknown;
  private final List<String> known;

  public UnknownAgentsException(List<String> unknown, Set<String> known) {
    super(
        "unknown agent "
            + String.join(", ", unknown.stream().map(n -> "@" + n).toList())
            + ": mention one of "
            + String.join(", ", known.stream().map(n -> "@" + n).toList()));
    this.unknown = List.copyOf(unknown);
    this.known = List.copyOf(known);
  }

  public List<String> unknown() {
    return unknown;
  }

  public List<String> known() {
    return known;
  }
}
