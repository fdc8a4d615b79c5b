package dev.legio.longterm;

import dev.legio.errors.UsageError;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A file of an agent's memory folder that Legio will not read or write back as it is: a symbolic
 * link, a folder or other file that is not a regular one, or a file that is not UTF-8 ({@link
 * MemoryFileRead}). Only the operator can mend it, and the message says how.
 *
 * <p>Rules: it is the operator's to fix, not a failure of the system: a command that ends with one
 * prints its message alone and exits 2 ({@link UsageError}); a consolidation it stops ends {@link
 * ConsolidationResult.Refused} rather than failed; nothing retried succeeds until the file is
 * fixed. It is an {@link UncheckedIOException}, so callers that take any unreadable file alike
 * still do.
 */
public final class MemoryFileRefused extends UncheckedIOException implements UsageError {
  /**
   * @param reason for people: names the file and says what to do
   */
  public MemoryFileRefused(String reason) {
    // the reason as the cause's message too: the cause's own would start with its class name
    super(reason, new IOException(reason));
  }
}
