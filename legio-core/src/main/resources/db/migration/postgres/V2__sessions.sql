-- Session records and session leases (dev.legio.session.SessionStore), with the native types of
-- nuntii: uuid and timestamptz (microseconds). Owners use the "C" collation so that "ORDER BY
-- owner" is code point order, as SQLite's BINARY collation is, whatever the database's locale.
--
-- One row per owner (an agent or a channel): its current session.
CREATE TABLE sessions (
    owner TEXT COLLATE "C" PRIMARY KEY,
    session_id UUID NOT NULL,
    backend TEXT NOT NULL,
    backend_session_id TEXT,
    prompt_hash TEXT NOT NULL,
    roster_hash TEXT,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    message_count BIGINT NOT NULL,
    last_injected_seq BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    last_active_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('active', 'closed')),
    close_reason TEXT,
    rebuilds BIGINT NOT NULL
);
CREATE INDEX idx_sessions_expires_at ON sessions(expires_at);

-- Who may drive an owner's session, until when. Independent of sessions: a lease may exist for an
-- owner that has no record (yet).
CREATE TABLE session_leases (
    owner TEXT COLLATE "C" PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until TIMESTAMPTZ NOT NULL
);
