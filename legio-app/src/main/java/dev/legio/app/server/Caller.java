package dev.legio.app.server;

import java.util.List;

/**
 * Who sent a request: the token's name, its role and, for a gateway, the channel sources it may
 * post to; {@code tokenId} tells this token from another made later under the same name (the
 * SHA-256 of its secret, as stored), so that what belongs to a token (its request keys) is not
 * inherited by its replacement.
 */
public record Caller(String token, Role role, List<String> sources, String tokenId) {
  public Caller {
    sources = List.copyOf(sources);
  }

  public boolean mayPostTo(String source) {
    return role == Role.OPERATOR || (role == Role.GATEWAY && sources.contains(source));
  }
}
