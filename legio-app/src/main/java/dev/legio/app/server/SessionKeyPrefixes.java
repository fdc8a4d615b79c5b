package dev.legio.app.server;

import dev.legio.task.SessionKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Which task session keys a task token reaches ({@code legio token create NAME --role task --keys
 * campaign:,ticket:}), so that platforms or tenants sharing one Legio each reach only their own
 * task sessions.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>No prefixes: every key. A task token made without {@code --keys} (every one made before
 *       {@code --keys} existed) keeps reaching every key; {@code legio token list} says so.
 *   <li>Else a key is reached when it starts with one of the prefixes, compared exactly as the key
 *       is (case and every character count; a key is never parsed or normalised). A key equal to a
 *       prefix is reached.
 *   <li>A prefix is 1-200 printable characters ({@link SessionKey#requirePrefix}) and neither
 *       begins nor ends with white space (a space after a comma, {@code --keys "a:, b:"}, would
 *       otherwise make a prefix no key of the platform starts with). {@code --keys} given with no
 *       prefix is refused, never taken as "every key". A prefix given twice counts once.
 *   <li>A key the token does not reach is refused before anything runs or is read: {@code POST
 *       /tasks} and {@code GET /tasks/sessions} answer 403 naming the prefixes ({@code
 *       key_prefixes}), and such a task is never sent on to another node.
 * </ul>
 */
public record SessionKeyPrefixes(List<String> prefixes) {
  /** No prefixes: every key. */
  public static final SessionKeyPrefixes EVERY_KEY = new SessionKeyPrefixes(List.of());

  public SessionKeyPrefixes {
    prefixes = prefixes == null ? List.of() : List.copyOf(prefixes);
  }

  /**
   * The prefixes a user gave ({@code --keys}), checked by the rules above.
   *
   * @throws IllegalArgumentException saying which prefix is wrong and how to write it
   */
  public static SessionKeyPrefixes given(List<String> prefixes) {
    if (prefixes.isEmpty()) {
      throw new IllegalArgumentException(
          "--keys names no key prefix: give at least one, e.g. --keys campaign:,ticket: (leave"
              + " --keys out for a token that reaches every key)");
    }
    LinkedHashSet<String> distinct = new LinkedHashSet<>();
    for (String prefix : prefixes) {
      SessionKey.requirePrefix(prefix);
      if (Character.isWhitespace(prefix.codePointAt(0))
          || Character.isSpaceChar(prefix.codePointAt(0))
          || Character.isWhitespace(prefix.codePointBefore(prefix.length()))
          || Character.isSpaceChar(prefix.codePointBefore(prefix.length()))) {
        throw new IllegalArgumentException(
            "key prefix '"
                + prefix
                + "' begins or ends with a space: write the prefixes without spaces, e.g. --keys"
                + " campaign:,ticket:");
      }
      distinct.add(prefix);
    }
    return new SessionKeyPrefixes(new ArrayList<>(distinct));
  }

  /** True when the token names no prefix. */
  public boolean everyKey() {
    return prefixes.isEmpty();
  }

  /** Whether a task with {@code key} is within these prefixes. */
  public boolean reaches(String key) {
    if (everyKey()) {
      return true;
    }
    for (String prefix : prefixes) {
      if (key.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
