-- A reply a gateway owes may belong in a thread of its chat: Slack's thread_ts of the message it
-- answers (NULL for a reply to the chat itself, as Telegram's are).
ALTER TABLE gateway_outbox ADD COLUMN thread TEXT;
