package dev.legio.backend.http;

import dev.legio.secrets.SecretRedactor;

/**
 * Keeps secrets out of what a back-end says in its errors and logs: the back-end's API key, and
 * whatever {@link SecretRedactor} masks in the log (the process's registered secrets, credential
 * shapes, the user-info of a URL such as {@code [backend] base_url}). A failure's message thus
 * reads the same in the log, in an API answer and to a Java caller.
 */
public final class Secrets {
  public static final String MASK = SecretRedactor.MASK;

  private Secrets() {}

  /**
   * {@code text} with every occurrence of {@code secret} (ignored when null or shorter than 4
   * characters) and everything {@link SecretRedactor#redact} masks replaced by {@link #MASK}.
   */
  public static String redact(String text, String secret) {
    if (text == null) {
      return null;
    }
    String out = secret == null || secret.length() < 4 ? text : text.replace(secret, MASK);
    return SecretRedactor.redact(out);
  }
}
