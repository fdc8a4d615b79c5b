-- Session records and session leases (dev.legio.session.SessionStore). As in nuntii, ids are text
-- and timestamps are canonical text (dev.legio.log.Timestamps: UTC, microseconds, fixed width, so
-- text order is time order and expires_at / lease_until compare with <).
--
-- One row per owner (an agent or a channel): its current session.
CREATE TABLE sessions (
    owner TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    backend TEXT NOT NULL,
    backend_session_id TEXT,
    prompt_hash TEXT NOT NULL,
    roster_hash TEXT,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    message_count INTEGER NOT NULL,
    last_injected_seq INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('active', 'closed')),
    close_reason TEXT,
    rebuilds INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX idx_sessions_expires_at ON sessions(expires_at);

-- Who may drive an owner's session, until when. Independent of sessions: a lease may exist for an
-- owner that has no record (yet).
CREATE TABLE session_leases (
    owner TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until TEXT NOT NULL
) WITHOUT ROWID;
