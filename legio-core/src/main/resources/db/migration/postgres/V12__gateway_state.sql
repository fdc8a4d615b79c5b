-- The chat gateways' state (dev.legio.store.gateway.GatewayStateStore), one row per gateway
-- (telegram, slack, ...): the platform's update offset, stored after the turn it answered was
-- logged (exactly-once across restarts); the lease of the node that polls the platform (one at a
-- time among nodes sharing this database); and the health the serving process last reported, so
-- that `legio status` in another process can show it.
CREATE TABLE gateway_state (
    gateway TEXT PRIMARY KEY,
    next_offset BIGINT NOT NULL DEFAULT 0,
    lease_holder TEXT,
    lease_until TIMESTAMPTZ,
    state TEXT,
    detail TEXT,
    messages_in BIGINT NOT NULL DEFAULT 0,
    messages_out BIGINT NOT NULL DEFAULT 0,
    reported_at TIMESTAMPTZ
);

-- Replies a gateway owes the platform: written in the same transaction as the offset of the update
-- they answer, deleted once sent, so that a restart between the two sends them rather than losing
-- them (and never runs the turn again).
CREATE TABLE gateway_outbox (
    id BIGSERIAL PRIMARY KEY,
    gateway TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX idx_gateway_outbox_gateway ON gateway_outbox(gateway, id);
