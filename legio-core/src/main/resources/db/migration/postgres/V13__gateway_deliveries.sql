-- The chat gateways' deliveries seen (dev.legio.delivery.DeliveryLedger): a platform's event id is
-- kept until it expires, so that a platform's retry of the same event runs no second turn, after a
-- restart or on another node too. Pruned by the daily cleanup.
CREATE TABLE gateway_deliveries (
    source TEXT NOT NULL,
    event_id TEXT NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (source, event_id)
);
CREATE INDEX idx_gateway_deliveries_expires_at ON gateway_deliveries(expires_at);
