-- The messages a webhook gateway has taken in and still owes a turn (dev.legio.store.gateway.
-- GatewayInbox): kept, with the delivery's records, before the platform gets its answer (Slack's
-- 200), and deleted in the transaction that keeps the turn's replies in gateway_outbox. A process
-- that dies while the turn runs leaves the row; a live process takes it over once its claim has run
-- out or its holder is gone, and runs the turn again under the message's request key (so the
-- request is logged once). message_key is the platform's id of the message (Slack: channel and ts).
CREATE TABLE gateway_inbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    gateway TEXT NOT NULL,
    message_key TEXT NOT NULL,
    channel TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    thread TEXT,
    user_id TEXT,
    user_name TEXT,
    text TEXT NOT NULL,
    claimed_by TEXT NOT NULL,
    holder_host TEXT NOT NULL,
    holder_pid INTEGER NOT NULL,
    claimed_until TEXT NOT NULL,
    received_at TEXT NOT NULL,
    UNIQUE (gateway, message_key)
);
CREATE INDEX idx_gateway_inbox_gateway ON gateway_inbox(gateway, id);
