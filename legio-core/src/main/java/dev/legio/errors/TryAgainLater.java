package dev.legio.errors;

/**
 * A refusal that is neither the caller's input to fix nor a failure of Legio: what was asked for is
 * busy (a session running a turn), and the same request will do once it is not.
 *
 * <p>Rule: a command that ends with one prints {@code legio: } and the message, which says what is
 * busy and to try again, and exits with status 1; nothing goes to the log as an error and no stack
 * trace is written. A tool the legatus calls answers it as a refusal it can act on, as the API
 * answers it with 409.
 */
public interface TryAgainLater {}
