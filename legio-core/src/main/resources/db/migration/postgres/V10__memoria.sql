-- Memoria in the database ([memoria] store = "database", dev.legio.memoria.jdbc.JdbcMemoryStore):
-- one row per entry (edicta, acta, an agent's commentarii) and one per note, oldest first. An entry
-- is changed in one transaction that holds its row (SELECT ... FOR UPDATE), so writers of one entry
-- on any node are serialised; version counts its changes (1 at its first publication).
CREATE TABLE memoria_entries (
    kind TEXT NOT NULL CHECK (kind IN ('edicta', 'acta', 'commentarii')),
    -- the agent whose commentarium this is; '' for edicta and acta
    centurio TEXT NOT NULL,
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    revoked_by TEXT,
    revoked_at TIMESTAMPTZ,
    revoke_reason TEXT,
    PRIMARY KEY (kind, centurio, name)
);
CREATE TABLE memoria_notes (
    kind TEXT NOT NULL,
    centurio TEXT NOT NULL,
    name TEXT NOT NULL,
    position INTEGER NOT NULL,
    author TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (kind, centurio, name, position),
    FOREIGN KEY (kind, centurio, name) REFERENCES memoria_entries (kind, centurio, name)
        ON DELETE CASCADE
);
