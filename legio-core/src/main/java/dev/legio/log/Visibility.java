package dev.legio.log;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Who sees a message. A viewer sees a message when any of these holds (names match exactly: {@code
 * vorenus} is not {@code vorenus2}):
 *
 * <ol>
 *   <li>the viewer is caesar or the legatus, who see every message;
 *   <li>the message's audience is {@code all};
 *   <li>the viewer is in the message's audience;
 *   <li>the viewer sent the message: an agent sees what it said, also its replies addressed to
 *       caesar alone.
 * </ol>
 *
 * Stores index the names that see a message by name ({@link #namedViewers}), so that "the newest 50
 * messages vorenus may see" reads that index for {@code vorenus} and for {@code all}, and nothing
 * else.
 */
public final class Visibility {
  private Visibility() {}

  /** True if {@code viewer} may see a message from {@code sender} to {@code audience}. */
  public static boolean sees(String viewer, String sender, Audience audience) {
    return Names.seesEverything(viewer) || viewer.equals(sender) || audience.isVisibleTo(viewer);
  }

  /**
   * The names under which a store indexes a message: its audience names ({@code all} alone for
   * everyone) and its sender, unless the sender sees every message anyway.
   */
  public static Set<String> namedViewers(String sender, Audience audience) {
    if (Names.seesEverything(sender) || audience.names().contains(sender)) {
      return audience.names();
    }
    Set<String> names = new LinkedHashSet<>(audience.names());
    names.add(sender);
    return names;
  }
}
