-- The chat gateways' deliveries seen (dev.legio.delivery.DeliveryLedger): a platform's event id is
-- kept until it expires, so that a platform's retry of the same event runs no second turn, after a
-- restart or on another node too. Pruned by the daily cleanup. Timestamps as in nuntii (canonical
-- text, so text order is time order).
CREATE TABLE gateway_deliveries (
    source TEXT NOT NULL,
    event_id TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (source, event_id)
);
CREATE INDEX idx_gateway_deliveries_expires_at ON gateway_deliveries(expires_at);
