package dev.legio.config;

import java.util.Locale;

/**
 * An API key read from the environment must be one an HTTP header can carry.
 *
 * <p>Rule: a key holding a character outside visible ASCII (a non-breaking space or a curly quote
 * pasted from a web page, a space inside it) is refused when the configuration is read, with the
 * variable's name and the character's code and position, never the key itself. Sent as it was, it
 * made every turn fail with "An error occurred during processing", and only the log said why, in
 * the HTTP client's words, without naming the variable.
 */
final class ApiKeyCharacters {
  private ApiKeyCharacters() {}

  /**
   * Refuses {@code key} (already stripped of surrounding white space) from {@code variable} when it
   * holds a character outside {@code !} to {@code ~}.
   *
   * @throws ConfigException when it does
   */
  static void require(String variable, String key) {
    for (int i = 0; i < key.length(); ) {
      int c = key.codePointAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new ConfigException(
            "environment variable "
                + variable
                + " holds a character an API key cannot have (U+"
                + String.format(Locale.ROOT, "%04X", c)
                + " at position "
                + (i + 1)
                + "): set it again with the key alone, as the provider's console shows it (a"
                + " copied key may bring a non-breaking space or a typographic quote with it)");
      }
      i += Character.charCount(c);
    }
  }
}
