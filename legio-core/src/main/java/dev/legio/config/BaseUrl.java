package dev.legio.config;

import dev.legio.secrets.SecretRedactor;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * {@code [backend] base_url}: where the model's requests, and the API key, are sent.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>It is empty (the back-end's own default) or an {@code http://} or {@code https://} URL that
 *       {@link URI} reads, with a host: a URL that would only fail at the first request ("host must
 *       not be null") is refused when {@code legio.toml} is read.
 *   <li>An error never shows the URL's user-info (user name and password): it reads {@code
 *       https://***@host/...} ({@link SecretRedactor#MASK}), also when a space or an {@code @} in
 *       the password keeps {@link SecretRedactor}'s URL shape from seeing it. When the user-info is
 *       what breaks the URL, the error says so: percent-encode its special characters, or better,
 *       give the credential in the API key's variable and leave it out of the URL.
 * </ul>
 */
final class BaseUrl {
  private static final String EXPECTED = "an http:// or https:// URL, or \"\"";

  private BaseUrl() {}

  /**
   * {@code value} (stripped) when it is a base URL; else the error for {@code key} of {@code t}.
   */
  static String check(TomlTable t, String key, String value) {
    if (value.isEmpty()) {
      return value;
    }
    int start = value.indexOf("://") + 3;
    int at = value.lastIndexOf('@');
    boolean userInfo = start > 2 && at >= start;
    String shown = "\"" + masked(value) + "\"";
    if (!value.matches("(?i)https?://.+")) {
      throw t.error(key, EXPECTED, shown);
    }
    String host;
    try {
      host = new URI(value).getHost();
    } catch (URISyntaxException e) {
      host = null;
    }
    if (host != null && !value.matches(".*\\s.*")) {
      return value;
    }
    if (userInfo && hostAfter(value, at)) {
      throw t.error(
          key,
          EXPECTED,
          shown
              + ": its user name or password holds a character a URL cannot hold as it is (a"
              + " space, '@', '/', ':', '#'); percent-encode it (a space as %20, '@' as %40), or"
              + " better, put the credential in the API key's variable (api_key_env) and leave it"
              + " out of the URL");
    }
    throw t.error(key, EXPECTED, shown);
  }

  /** {@code url} with everything between {@code ://} and its last {@code @} masked. */
  static String masked(String url) {
    int start = url.indexOf("://");
    int at = url.lastIndexOf('@');
    if (start < 0 || at < start + 3) {
      return url;
    }
    return url.substring(0, start + 3) + SecretRedactor.MASK + url.substring(at);
  }

  /** Whether what follows the user-info ends in a URL that reads, with a host. */
  private static boolean hostAfter(String url, int at) {
    String rest = url.substring(0, url.indexOf("://") + 3) + url.substring(at + 1);
    try {
      return !rest.matches(".*\\s.*") && new URI(rest).getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
