package dev.legio.log;

import dev.legio.errors.Quoted;
import java.util.regex.Pattern;

/**
 * The names of the people and agents that take part in the message log, and the rules they follow.
 *
 * <ul>
 *   <li>A name is 1 to 32 characters: a lowercase ASCII letter, then lowercase letters, digits,
 *       {@code -} or {@code _} ({@code vorenus}, {@code pullo}, {@code code-review}).
 *   <li>An external channel is a name, a colon and a channel id of 1 to 64 letters, digits, {@code
 *       -} or {@code _} ({@code telegram:123}).
 *   <li>{@code caesar} (the operator) and {@code legatus} (the orchestrator) see every message.
 *   <li>{@code all} addresses every participant; it is an audience, never a sender or a viewer.
 * </ul>
 *
 * The rules keep names safe as folder names and as XML attribute values, and make visibility an
 * exact match: {@code vorenus} and {@code vorenus2} are different names.
 */
public final class Names {
  public static final String CAESAR = "caesar";
  public static final String LEGATUS = "legatus";
  public static final String ALL = "all";

  public static final int MAX_LENGTH = 32;

  private static final Pattern NAME =
      Pattern.compile("[a-z][a-z0-9_-]{0,31}(:[A-Za-z0-9_-]{1,64})?");

  private Names() {}

  /** True for caesar and the legatus, who see the whole log. */
  public static boolean seesEverything(String viewer) {
    return CAESAR.equals(viewer) || LEGATUS.equals(viewer);
  }

  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /**
   * Returns the name if it is valid, else throws an {@link InvalidMessageException} saying which
   * role ({@code what}: "sender", "viewer", ...) had a bad name and what a good one looks like.
   */
  public static String require(String name, String what) {
    if (name == null || name.isEmpty()) {
      throw new InvalidMessageException(what + " is empty: give a name such as 'vorenus'");
    }
    if (!isValid(name)) {
      throw new InvalidMessageException(
          what
              + " '"
              + Quoted.of(name)
              + "' is not a valid name: use 1-"
              + MAX_LENGTH
              + " characters, a lowercase letter first, then lowercase letters, digits, '-' or"
              + " '_' (a channel adds ':id', as in 'telegram:123')");
    }
    return name;
  }
}
