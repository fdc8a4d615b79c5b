package dev.legio.config;

/** A configuration file that cannot be used; the message names the file, the key and the fix. */
public class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
