package dev.legio.log.jdbc;

import dev.legio.log.MessageLogException;

/**
 * A write failed before the database ran any of its work: it refused to begin the transaction
 * (SQLite's file held by another program past the busy wait, PostgreSQL out of reach when the
 * writer opened its connection).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Thrown by the log's writer ({@link GroupCommitWriter}, through {@link SharedWriter}) when
 *       no work of the failed transaction ran, its own or that of callers sharing it; never when
 *       work ran and failed (a refusal of content, a statement the connection lost mid-way).
 *   <li>So no statement in it was refused for what it holds: writing its work again, alone or in
 *       parts, only waits the same again until the fault ends. A caller keeping work to write again
 *       keeps all of it, as one.
 * </ul>
 */
public final class TransactionNotBegunException extends MessageLogException {
  public TransactionNotBegunException(String message, Throwable cause) {
    super(message, cause);
  }
}
