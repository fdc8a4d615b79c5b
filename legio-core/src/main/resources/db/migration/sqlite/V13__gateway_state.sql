-- The chat gateways' state (dev.legio.store.gateway.GatewayStateStore), one row per gateway
-- (telegram, slack, ...): the platform's update offset, stored after the turn it answered was
-- logged (exactly-once across restarts); the lease of the node that polls the platform (one at a
-- time among processes sharing this database); and the health the serving process last reported,
-- so that `legio status` in another process can show it. Timestamps are canonical text, as in
-- nuntii, so lease_until compares with <.
CREATE TABLE gateway_state (
    gateway TEXT PRIMARY KEY,
    next_offset INTEGER NOT NULL DEFAULT 0,
    lease_holder TEXT,
    lease_until TEXT,
    state TEXT,
    detail TEXT,
    messages_in INTEGER NOT NULL DEFAULT 0,
    messages_out INTEGER NOT NULL DEFAULT 0,
    reported_at TEXT
) WITHOUT ROWID;

-- Replies a gateway owes the platform: written in the same transaction as the offset of the update
-- they answer, deleted once sent, so that a restart between the two sends them rather than losing
-- them (and never runs the turn again).
CREATE TABLE gateway_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    gateway TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX idx_gateway_outbox_gateway ON gateway_outbox(gateway, id);
