package dev.legio.app.server;

import java.util.List;

/**
 * Who sent a request: the token's name, its role and, for a gateway, the channel sources it may
 * post to.
 */
public record Caller(String token, Role role, List<String> sources) {
  public Caller {
    sources = List.copyOf(sources);
  }

  public boolean mayPostTo(String source) {
    return role == Role.OPERATOR || (role == Role.GATEWAY && sources.contains(source));
  }
}
