package dev.legio.config;

import dev.legio.errors.UsageError;

/** A configuration file that cannot be used; the message names the file, the key and the fix. */
public class ConfigException extends RuntimeException implements UsageError {
  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
