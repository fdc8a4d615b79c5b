-- Legio's original praetorium schema. IF NOT EXISTS: on a praetorium.db written by Legio this
-- changes nothing (Flyway baselines such a database at version 0, then runs this and V2).
CREATE TABLE IF NOT EXISTS nuntii (
    id TEXT PRIMARY KEY,
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    audience TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    reply_to TEXT,
    FOREIGN KEY (reply_to) REFERENCES nuntii(id)
);
CREATE INDEX IF NOT EXISTS idx_nuntii_timestamp ON nuntii(timestamp);
CREATE INDEX IF NOT EXISTS idx_nuntii_sender ON nuntii(sender);
