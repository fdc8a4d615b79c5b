package dev.legio.config;

import java.util.Map;

/**
 * Keys the chat gateways' sections share: the name of an environment variable holding a secret, the
 * secret read from it, and a platform's API URL.
 */
final class GatewayKeys {
  private GatewayKeys() {}

  /**
   * An environment variable's name: letters, digits and '_', not starting with a digit. Anything
   * else may be the secret itself, written where its variable's name belongs: the error does not
   * repeat it.
   */
  static String variable(TomlTable t, String key, String fallback) {
    String name = t.string(key, fallback).strip();
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw t.error(
          key,
          "the name of an environment variable, e.g. \"" + fallback + "\"",
          "something else (not repeated here, in case it is the secret itself: put the secret in"
              + " the environment and its variable's name here)");
    }
    return name;
  }

  /** The value of {@code variable} in {@code env}, stripped; null when unset or blank. */
  static String secret(Map<String, String> env, String variable) {
    String value = env.get(variable);
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** An http(s) URL without its trailing slashes. */
  static String url(TomlTable t, String key, String fallback) {
    String url = t.string(key, fallback).strip();
    if (!url.matches("(?i)https?://\\S+")) {
      throw t.error(
          key, "an http:// or https:// URL, e.g. \"" + fallback + "\"", "\"" + url + "\"");
    }
    return url.replaceAll("/+$", "");
  }
}
