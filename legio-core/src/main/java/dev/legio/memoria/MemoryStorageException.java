package dev.legio.memoria;

/** The memory folders could not be read or written (a full disk, permissions, a broken file). */
public class MemoryStorageException extends RuntimeException {
  public MemoryStorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
