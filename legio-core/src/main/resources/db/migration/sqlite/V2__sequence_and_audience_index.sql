-- Adds the sequence number and the audience index beside Legio's columns.
--
-- nuntii is rebuilt (SQLite cannot add a primary key in place) so that seq becomes the rowid:
-- messages are stored in sequence order and found by it directly. AUTOINCREMENT guarantees a
-- number is never handed out twice, even after the newest messages are deleted. Existing
-- messages are numbered in timestamp order (ties in the order they were written). Runs with
-- foreign keys off, as SQLite's table-rebuild procedure requires; a reply_to that pointed at no
-- message (possible only if a writer had foreign keys off) is cleared so the rule holds again.
CREATE TABLE nuntii_rebuilt (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    audience TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    reply_to TEXT REFERENCES nuntii(id)
);
INSERT INTO nuntii_rebuilt (id, sender, text, audience, timestamp, reply_to)
    SELECT id, sender, text, audience, timestamp, reply_to FROM nuntii ORDER BY timestamp, rowid;
UPDATE nuntii_rebuilt SET reply_to = NULL
    WHERE reply_to IS NOT NULL AND reply_to NOT IN (SELECT id FROM nuntii_rebuilt);
DROP TABLE nuntii;
ALTER TABLE nuntii_rebuilt RENAME TO nuntii;
CREATE INDEX idx_nuntii_timestamp ON nuntii(timestamp);
CREATE INDEX idx_nuntii_sender ON nuntii(sender);
CREATE INDEX idx_nuntii_reply_to ON nuntii(reply_to);

-- One row per (audience name, message): "the newest N messages for vorenus" reads two short
-- ranges of this index (vorenus, all) instead of scanning the log.
CREATE TABLE nuntius_audience (
    name TEXT NOT NULL,
    seq INTEGER NOT NULL REFERENCES nuntii(seq) ON DELETE CASCADE,
    PRIMARY KEY (name, seq)
) WITHOUT ROWID;
INSERT OR IGNORE INTO nuntius_audience (name, seq)
    SELECT j.value, n.seq FROM nuntii n, json_each(n.audience) j
    WHERE json_valid(n.audience) AND json_type(n.audience) = 'array';
-- An audience that is not a JSON array (hand-edited rows) counts as one name.
INSERT OR IGNORE INTO nuntius_audience (name, seq)
    SELECT n.audience, n.seq FROM nuntii n
    WHERE NOT (json_valid(n.audience) AND json_type(n.audience) = 'array');
