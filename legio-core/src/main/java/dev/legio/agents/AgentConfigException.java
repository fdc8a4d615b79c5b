package dev.legio.agents;

import dev.legio.errors.UsageError;

/**
 * An agent's {@code prompt.md} that cannot be used. The message starts with the file's path and
 * says what is wrong and what was expected.
 */
public class AgentConfigException extends RuntimeException implements UsageError {
  public AgentConfigException(String message) {
    super(message);
  }

  public AgentConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
