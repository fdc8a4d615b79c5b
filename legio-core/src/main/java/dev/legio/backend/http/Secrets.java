package dev.legio.backend.http;

/** Keeps secrets (API keys) out of what Legio writes to logs and shows in errors. */
public final class Secrets {
  public static final String MASK = "***";

  private Secrets() {}

  /** {@code text} with every occurrence of {@code secret} masked; unchanged when none is set. */
  public static String redact(String text, String secret) {
    if (text == null || secret == null || secret.length() < 4) {
      return text;
    }
    return text.replace(secret, MASK);
  }
}
