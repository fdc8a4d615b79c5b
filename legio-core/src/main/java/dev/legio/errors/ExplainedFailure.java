package dev.legio.errors;

/**
 * An exception whose message already says, in one line for the operator, what failed and why: the
 * message log's store, a transcript's file, a port another program holds.
 *
 * <p>Rule: a command that ends with one prints {@code legio: } and the message (secrets masked),
 * writes the stack trace to the log file only, and exits with status 1; the line ends with {@code
 * (details in the log file)} when the log file took them, else the causes follow on the console
 * ({@code legio: cause: ...}), one a line. Any other exception is printed the same way after the
 * command's name ({@code legio: log import failed: ...}), since its message alone may not say what
 * failed. Either way the message is in the words {@link FailureText} gives: never a Java class name
 * (but for a failure with no message at all).
 */
public interface ExplainedFailure {}
