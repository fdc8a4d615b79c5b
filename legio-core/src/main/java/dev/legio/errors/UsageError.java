package dev.legio.errors;

/**
 * An exception whose message tells the operator what to fix in what they asked for or set up: an
 * argument, a configuration file, the workspace, an agent's prompt file, a session id with no
 * transcript.
 *
 * <p>Rule: a command that ends with one prints {@code legio: } and the message alone (secrets
 * masked), logs nothing, and exits with status 2, as for a wrong option. The JDK's {@link
 * IllegalArgumentException} is treated alike. An exception that is both a usage error and an {@link
 * ExplainedFailure} (a subclass naming a case of its parent) is a usage error.
 */
public interface UsageError {}
