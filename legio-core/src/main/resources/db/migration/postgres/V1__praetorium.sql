-- The message log on PostgreSQL: Legio's columns with native types, plus seq.
CREATE TABLE nuntii (
    seq BIGINT PRIMARY KEY,
    id UUID NOT NULL UNIQUE,
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    audience JSONB NOT NULL,
    timestamp TIMESTAMPTZ NOT NULL,
    reply_to UUID REFERENCES nuntii(id) DEFERRABLE INITIALLY IMMEDIATE
);
CREATE INDEX idx_nuntii_timestamp ON nuntii(timestamp);
CREATE INDEX idx_nuntii_sender ON nuntii(sender);
CREATE INDEX idx_nuntii_reply_to ON nuntii(reply_to);

-- One row per (audience name, message), see the SQLite schema.
CREATE TABLE nuntius_audience (
    name TEXT NOT NULL,
    seq BIGINT NOT NULL REFERENCES nuntii(seq) ON DELETE CASCADE,
    PRIMARY KEY (name, seq)
);

-- Sequence numbers in commit order: updating this row locks it until the writer commits, so
-- numbers never appear out of order to readers, even with several Legio nodes.
CREATE TABLE nuntii_sequence (
    singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    last_value BIGINT NOT NULL
);
INSERT INTO nuntii_sequence (singleton, last_value) VALUES (TRUE, 0);
