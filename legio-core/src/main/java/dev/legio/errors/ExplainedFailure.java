package dev.legio.errors;

/**
 * An exception whose message already says, in one line for the operator, what failed and why: the
 * message log's store, a transcript's file, a port another program holds.
 *
 * <p>Rule: a command that ends with one prints {@code legio: }, the message (secrets masked) and
 * {@code (details in the log file)}, writes the stack trace to the log file only, and exits with
 * status 1. Any other exception is printed the same way but with its class name before the message,
 * since its message alone may not say what failed.
 */
public interface ExplainedFailure {}
