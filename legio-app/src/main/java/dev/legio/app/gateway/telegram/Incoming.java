package dev.legio.app.gateway.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.StringJoiner;

/**
 * A text message from a Telegram update, as Legio reads it (the Bot API's {@code Update.message}:
 * {@code chat.id}, {@code chat.type}, {@code from.id}, the sender's names and {@code text}).
 *
 * @param chatId the chat, as the Bot API's {@code chat_id} takes it
 * @param privateChat whether the chat is a private chat with the bot
 * @param userId the sender's user id; 0 when the message has no sender (a channel post)
 * @param userName the sender's name as Telegram shows it (first and last name, and @username)
 * @param text the text exactly as sent
 * @param messageId the message's id in its chat ({@code message_id}); 0 when the update has none
 */
record Incoming(
    String chatId, boolean privateChat, long userId, String userName, String text, long messageId) {

  /** The text message of {@code update}, or null when it holds none (an edit, a photo, ...). */
  static Incoming of(JsonNode update) {
    JsonNode message = update.path("message");
    JsonNode text = message.path("text");
    JsonNode chat = message.path("chat");
    if (!text.isTextual() || !chat.path("id").isIntegralNumber()) {
      return null;
    }
    JsonNode from = message.path("from");
    StringJoiner name = new StringJoiner(" ");
    for (String field : new String[] {"first_name", "last_name"}) {
      if (from.path(field).isTextual() && !from.path(field).asText().isBlank()) {
        name.add(from.path(field).asText());
      }
    }
    if (from.path("username").isTextual()) {
      name.add("@" + from.path("username").asText());
    }
    return new Incoming(
        Long.toString(chat.path("id").asLong()),
        "private".equals(chat.path("type").asText()),
        from.path("id").asLong(0),
        name.length() == 0 ? null : name.toString(),
        text.asText(),
        message.path("message_id").asLong(0));
  }

  /**
   * The key that makes this message's request the same one however often Telegram delivers it (a
   * restart takes again an update whose turn a killed process had begun): its chat and message id,
   * unique in the bot's chats. Null when the update gives no message id.
   */
  dev.legio.session.RequestKey requestKey() {
    return messageId <= 0
        ? null
        : new dev.legio.session.RequestKey(
            "gateway:telegram", "chat:" + chatId + ":message:" + messageId);
  }

  /** The channel this chat talks to: {@code telegram:{chat_id}}. */
  String channel() {
    return "telegram:" + chatId;
  }
}
