package dev.legio.app.server;

import java.util.Locale;

/** What a server token may do. A closed set: each value says what its holder may reach. */
public enum Role {
  /** Speaks as caesar: every endpoint. */
  OPERATOR,
  /** A chat gateway: only {@code POST /channels/{source}:{id}/messages} for its token's sources. */
  GATEWAY,
  /**
   * A task runner: only task sessions ({@code POST /tasks}, {@code GET /tasks/sessions}), of the
   * session keys its token's prefixes reach ({@link SessionKeyPrefixes}; none: every key).
   */
  TASK,
  /**
   * A monitoring scraper (Prometheus): only {@code GET /metrics}, which an operator may read too.
   */
  METRICS;

  /** {@code operator}, {@code gateway}, {@code task}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a label; a clear error naming the choices for anything else. */
  public static Role parse(String text) {
    for (Role role : values()) {
      if (role.label().equals(text == null ? "" : text.strip().toLowerCase(Locale.ROOT))) {
        return role;
      }
    }
    throw new IllegalArgumentException(
        "unknown role '" + text + "': choose operator, gateway, task or metrics");
  }
}
