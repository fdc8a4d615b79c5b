package dev.legio.log;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One message of the log (a "nuntius").
 *
 * @param sequence assigned by the store when the message is committed; strictly increasing in
 *     commit order, so it orders and de-duplicates messages even when timestamps tie
 * @param id unique id, chosen when the message is created
 * @param sender who wrote it
 * @param text the body, any Unicode text
 * @param audience who it is addressed to; caesar, the legatus and the sender see it too
 * @param timestamp when it was created, in UTC with microsecond precision
 * @param replyTo the id of the message it answers, or null
 */
public record Message(
    long sequence,
    UUID id,
    String sender,
    String text,
    Audience audience,
    Instant timestamp,
    UUID replyTo) {

  public Message {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(timestamp, "timestamp");
  }

  /** True if {@code viewer} may see this message (see {@link Visibility}). */
  public boolean isVisibleTo(String viewer) {
    return Visibility.sees(viewer, sender, audience);
  }
}
