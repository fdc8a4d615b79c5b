package dev.legio.config;

/**
 * The {@code [legatus]} section: what the legatus's turns carry besides the request.
 *
 * @param digest each legatus turn carries the messages logged since its previous turn that did not
 *     pass through its own conversation (caesar with the centuriones, channels)
 * @param digestMaxTokens the most tokens (estimated) that digest may take; the newest messages are
 *     kept, and one line says how many were left out
 */
public record LegatusSettings(boolean digest, int digestMaxTokens) {
  public static final int DEFAULT_DIGEST_MAX_TOKENS = 4_000;

  public static LegatusSettings defaults() {
    return new LegatusSettings(true, DEFAULT_DIGEST_MAX_TOKENS);
  }

  /** No digest. */
  public static LegatusSettings withoutDigest() {
    return new LegatusSettings(false, DEFAULT_DIGEST_MAX_TOKENS);
  }

  static LegatusSettings read(TomlTable t) {
    LegatusSettings d = defaults();
    return new LegatusSettings(
        t.bool("digest", d.digest()),
        (int) t.integer("digest_max_tokens", d.digestMaxTokens(), 100, 1_000_000));
  }
}
