package dev.legio.log;

import java.util.Objects;
import java.util.UUID;

/**
 * A message to append: the store gives it an id (unless one is set), a timestamp and a sequence
 * number.
 *
 * @param replyTo the message it answers, which must already be in the log; null for none
 * @param id the id it must have; null for a new one. A message whose id is in the log already is
 *     refused (the append throws {@link MessageLogException}): how a request sent again with the
 *     same request key is told from a new one ({@code dev.legio.session.RequestKey})
 */
public record NewMessage(String sender, Audience audience, String text, UUID replyTo, UUID id) {

  public NewMessage {
    Names.require(sender, "sender");
    if (Names.ALL.equals(sender)) {
      throw new InvalidMessageException("sender 'all' is not allowed: 'all' is an audience");
    }
    Objects.requireNonNull(audience, "audience");
    Audience.of(audience.names()); // validates every name
    if (text == null) {
      throw new InvalidMessageException("text is missing: a message needs a text");
    }
  }

  /** A message with a new id. */
  public NewMessage(String sender, Audience audience, String text, UUID replyTo) {
    this(sender, audience, text, replyTo, null);
  }

  public static NewMessage of(String sender, Audience audience, String text) {
    return new NewMessage(sender, audience, text, null, null);
  }

  public NewMessage replyingTo(UUID parent) {
    return new NewMessage(sender, audience, text, parent, id);
  }

  /** This message with the id {@code given}. */
  public NewMessage withId(UUID given) {
    return new NewMessage(sender, audience, text, replyTo, Objects.requireNonNull(given, "id"));
  }
}
