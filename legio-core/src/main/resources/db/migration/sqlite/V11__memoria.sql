-- Memoria in the database ([memoria] store = "database", dev.legio.memoria.jdbc.JdbcMemoryStore):
-- one row per entry (edicta, acta, an agent's commentarii) and one per note, oldest first. An entry
-- is changed in one BEGIN IMMEDIATE transaction, so writers are serialised across processes;
-- version counts its changes (1 at its first publication). Timestamps as in nuntii (canonical
-- text).
CREATE TABLE memoria_entries (
    kind TEXT NOT NULL CHECK (kind IN ('edicta', 'acta', 'commentarii')),
    -- the agent whose commentarium this is; '' for edicta and acta
    centurio TEXT NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    revoked_by TEXT,
    revoked_at TEXT,
    revoke_reason TEXT,
    PRIMARY KEY (kind, centurio, name)
);
CREATE TABLE memoria_notes (
    kind TEXT NOT NULL,
    centurio TEXT NOT NULL,
    name TEXT NOT NULL,
    position INTEGER NOT NULL,
    author TEXT NOT NULL,
    at TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (kind, centurio, name, position),
    FOREIGN KEY (kind, centurio, name) REFERENCES memoria_entries (kind, centurio, name)
        ON DELETE CASCADE
);
