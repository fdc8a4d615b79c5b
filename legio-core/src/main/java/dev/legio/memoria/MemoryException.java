package dev.legio.memoria;

/**
 * A memory request that cannot be done as asked: a bad name or text, an entry that does not exist,
 * or a right the caller does not have. The message says what to do instead; nothing was written.
 */
public class MemoryException extends IllegalArgumentException {
  public MemoryException(String message) {
    super(message);
  }
}
