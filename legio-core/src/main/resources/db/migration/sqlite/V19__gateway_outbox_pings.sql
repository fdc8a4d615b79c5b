-- The one user a reply a gateway owes may ping (notify by naming them): Discord's asker, on the line
-- that introduces an answer the bot posts in the channel (its allowed_mentions names them alone).
-- NULL, as for every other reply: it pings no one, whatever its text names.
ALTER TABLE gateway_outbox ADD COLUMN ping_user TEXT;
