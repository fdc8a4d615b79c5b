package dev.legio.app.gateway.discord;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Whom a message the bot sends may ping: Discord's {@code allowed_mentions} object, which decides
 * who is notified whatever the message's text names.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>No one by default</b> ({@link #NOBODY}, {@code {"parse": []}}): a text naming {@code
 *       @everyone}, {@code @here}, a role or a user ({@code <@123>}) shows the name and notifies no
 *       one. Every text a model wrote goes so, and so does every message sent with an interaction's
 *       token.
 *   <li><b>At most one user, named by Legio</b> ({@link #only}, {@code {"parse": [], "users":
 *       ["ID"]}}): never {@code @everyone}, {@code @here} or a role, and never a user the text names
 *       but this object does not. Only the line that introduces an answer posted in the channel
 *       ({@link ChannelAnswer#intro}) uses it, to ping its asker.
 *   <li><b>A user is named by a snowflake</b> ({@link #isSnowflake}: ASCII digits only, at most
 *       20); any other id pings no one.
 * </ul>
 *
 * @param user the one user who may be pinged; null for no one
 */
record AllowedMentions(String user) {
  /** Pings no one. */
  static final AllowedMentions NOBODY = new AllowedMentions(null);

  AllowedMentions {
    if (user != null && !isSnowflake(user)) {
      throw new IllegalArgumentException("not a Discord user id: " + user);
    }
  }

  /** Pings {@code userId} alone when it is a snowflake, else no one. */
  static AllowedMentions only(String userId) {
    return isSnowflake(userId) ? new AllowedMentions(userId) : NOBODY;
  }

  /** True when {@code id} has the shape of a Discord id: 1 to 20 ASCII digits. */
  static boolean isSnowflake(String id) {
    return id != null && id.matches("[0-9]{1,20}");
  }

  /** This object as Discord takes it, in the message body {@code message}. */
  void writeTo(ObjectNode message) {
    ObjectNode allowed = message.putObject("allowed_mentions");
    allowed.putArray("parse");
    if (user != null) {
      allowed.putArray("users").add(user);
    }
  }
}
