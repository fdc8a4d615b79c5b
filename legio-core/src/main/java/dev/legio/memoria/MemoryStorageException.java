package dev.legio.memoria;

import dev.legio.errors.ExplainedFailure;

/**
 * The memory folders could not be read or written (a full disk, permissions, a broken file); the
 * message says which folder or file and why.
 */
public class MemoryStorageException extends RuntimeException implements ExplainedFailure {
  public MemoryStorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
