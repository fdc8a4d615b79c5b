package dev.legio.app.server;

import java.util.List;

/**
 * Who sent a request: the token's name, its role, for a gateway the channel sources it may post to,
 * for a task token the session keys it reaches ({@link SessionKeyPrefixes}); {@code tokenId} tells
 * this token from another made later under the same name (the SHA-256 of its secret, as stored), so
 * that what belongs to a token (its request keys) is not inherited by its replacement.
 */
public record Caller(
    String token, Role role, List<String> sources, SessionKeyPrefixes keys, String tokenId) {
  public Caller {
    sources = List.copyOf(sources);
    keys = keys == null ? SessionKeyPrefixes.EVERY_KEY : keys;
  }

  public boolean mayPostTo(String source) {
    return role == Role.OPERATOR || (role == Role.GATEWAY && sources.contains(source));
  }

  /**
   * Whether a task with session key {@code key} is this caller's: an operator reaches every key.
   */
  public boolean reachesTaskKey(String key) {
    return role == Role.OPERATOR || (role == Role.TASK && keys.reaches(key));
  }
}
