-- Task sessions (dev.legio.task.TaskSessionStore): one row per (session key, agent), the current
-- session of that pair. Kept apart from sessions (agents and channels): a session key is any
-- printable text the caller chose (it may hold ':' or '/'), so it gets columns of its own and can
-- never be read as an agent or a channel. Ids and timestamps as in nuntii (canonical text).
CREATE TABLE task_sessions (
    session_key TEXT NOT NULL,
    agent TEXT NOT NULL,
    session_id TEXT NOT NULL,
    backend TEXT NOT NULL,
    backend_session_id TEXT,
    prompt_hash TEXT NOT NULL,
    model TEXT,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (session_key, agent)
) WITHOUT ROWID;
CREATE INDEX idx_task_sessions_expires_at ON task_sessions(expires_at);

-- A key's totals are read from the ledger by key.
CREATE INDEX idx_usage_ledger_session_key ON usage_ledger(session_key);
