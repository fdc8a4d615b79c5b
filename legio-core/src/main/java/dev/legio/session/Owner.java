package dev.legio.session;

import dev.legio.log.Audience;
import dev.legio.log.Names;
import java.util.Objects;

/**
 * Who a session belongs to: an agent or an external channel.
 *
 * <p>Rules: the name {@code legatus} is the legatus; a name with a colon ({@code source:id}, as
 * {@code telegram:123}) is a channel whose source is the part before the first colon; any other
 * name is a centurio. A channel speaks in the log as the legatus and is answered to itself; an
 * agent speaks as itself and answers caesar. A centurio and a channel see the log as themselves;
 * the legatus sees it whole.
 *
 * @param name the owner's name as logged and stored ({@code vorenus}, {@code telegram:123})
 * @param kind what kind of owner it is
 * @param source the channel's source ({@code telegram}); null for an agent
 */
public record Owner(String name, OwnerKind kind, String source) {

  public Owner {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    if ((kind == OwnerKind.CHANNEL) != (source != null)) {
      throw new IllegalArgumentException("a channel, and only a channel, has a source: " + name);
    }
  }

  /** The owner a stored name stands for, by the rules above. */
  public static Owner of(String name) {
    int colon = name.indexOf(':');
    if (colon >= 0) {
      return new Owner(name, OwnerKind.CHANNEL, name.substring(0, colon));
    }
    return agent(name);
  }

  /** An agent: the legatus or a centurio. */
  public static Owner agent(String name) {
    return new Owner(
        name, Names.LEGATUS.equals(name) ? OwnerKind.LEGATUS : OwnerKind.CENTURIO, null);
  }

  /**
   * The channel with key {@code source:id}.
   *
   * @throws IllegalArgumentException when the key has no colon
   */
  public static Owner channel(String key) {
    if (key.indexOf(':') < 0) {
      throw new IllegalArgumentException(
          "a channel key is source:id, e.g. telegram:123; got '" + key + "'");
    }
    return of(key);
  }

  /** True for an external channel ({@code telegram:123}). */
  public boolean isChannel() {
    return kind == OwnerKind.CHANNEL;
  }

  /** Who answers in the log for this owner: the agent itself, or the legatus for a channel. */
  public String speaker() {
    return isChannel() ? Names.LEGATUS : name;
  }

  /** Who the owner's answers are addressed to: caesar, or the channel itself. */
  public Audience replyAudience() {
    return isChannel() ? Audience.of(name) : Audience.of(Names.CAESAR);
  }

  /** Whose view of the log the owner's context is drawn from. */
  public String viewer() {
    return kind == OwnerKind.LEGATUS ? Names.LEGATUS : name;
  }
}
