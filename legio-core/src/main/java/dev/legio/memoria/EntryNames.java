package dev.legio.memoria;

import dev.legio.errors.Quoted;
import java.util.regex.Pattern;

/**
 * The rules for the name of a memory entry, which is also its file name ({@code NAME.xml}).
 *
 * <ul>
 *   <li>1 to {@value #MAX_LENGTH} characters of ASCII: lowercase letters, digits, {@code -}, {@code
 *       _} and {@code .}; the first a letter or a digit ({@code north-road}, {@code
 *       2026-02-15.v2}).
 *   <li>No {@code ..} anywhere. With no {@code /}, {@code \}, {@code %}, control characters or
 *       non-ASCII letters allowed, a name can never leave its folder, name another agent's folder,
 *       or look like a different name (a Cyrillic {@code о} in {@code pullо} is refused).
 * </ul>
 *
 * Lowercase only, so two names never collide on a case-insensitive file system.
 */
public final class EntryNames {
  public static final int MAX_LENGTH = 64;

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  private EntryNames() {}

  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches() && !name.contains("..");
  }

  /**
   * Returns {@code name} if valid, else throws a {@link MemoryException} saying what is allowed.
   */
  public static String require(String name, String what) {
    if (name == null || name.isEmpty()) {
      throw new MemoryException(what + " is empty: give a name such as 'north-road'");
    }
    if (!isValid(name)) {
      throw new MemoryException(
          what
              + " '"
              + Quoted.of(name)
              + "' is not a valid name: use 1-"
              + MAX_LENGTH
              + " characters: lowercase ASCII letters, digits, '-', '_' or '.', a letter or digit"
              + " first, and no '..'");
    }
    return name;
  }
}
