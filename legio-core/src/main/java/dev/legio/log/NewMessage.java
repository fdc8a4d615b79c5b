package dev.legio.log;

import java.util.Objects;
import java.util.UUID;

/**
 * A message to append: the store gives it an id (unless one is set), a timestamp and a sequence
 * number.
 *
 * @param replyTo the message it answers, which must already be in the log; null for none
 */
public record NewMessage(String sender, Audience audience, String text, UUID replyTo) {

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

  public static NewMessage of(String sender, Audience audience, String text) {
    return new NewMessage(sender, audience, text, null);
  }

  public NewMessage replyingTo(UUID parent) {
    return new NewMessage(sender, audience, text, parent);
  }
}
