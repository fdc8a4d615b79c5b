-- Condensed Claude CLI sessions (dev.legio.session.SessionCondenser): the back-end conversations a
-- session ran on before its current one, oldest first, as a JSON array of strings; NULL when the
-- session was never condensed.
ALTER TABLE sessions ADD COLUMN previous_backend_session_ids TEXT;

-- Every turn's outcome in the usage ledger (dev.legio.usage.TurnOutcome): ok, or how it failed.
-- SQLite cannot change a CHECK constraint, so the table is copied into a new one; the two labels
-- before ('completed', 'failed') become 'ok' and 'error'. Row ids are kept.
CREATE TABLE usage_ledger_v15 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    session_id TEXT NOT NULL,
    owner TEXT NOT NULL,
    session_key TEXT,
    agent TEXT,
    task_run_id TEXT,
    backend TEXT NOT NULL,
    model TEXT,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    cost_nanos INTEGER,
    price_table_cost_nanos INTEGER,
    reported_cost_nanos INTEGER,
    cost_source TEXT NOT NULL CHECK (cost_source IN ('reported', 'price-table', 'local', 'unknown')),
    duration_ms INTEGER,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'timeout', 'lease_lost'))
);
INSERT INTO usage_ledger_v15 (id, at, session_id, owner, session_key, agent, task_run_id, backend,
    model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_nanos,
    price_table_cost_nanos, reported_cost_nanos, cost_source, duration_ms, outcome)
SELECT id, at, session_id, owner, session_key, agent, task_run_id, backend, model, input_tokens,
    output_tokens, cache_read_tokens, cache_write_tokens, cost_nanos, price_table_cost_nanos,
    reported_cost_nanos, cost_source, duration_ms,
    CASE outcome WHEN 'completed' THEN 'ok' ELSE 'error' END
FROM usage_ledger;
DROP TABLE usage_ledger;
ALTER TABLE usage_ledger_v15 RENAME TO usage_ledger;
CREATE INDEX idx_usage_ledger_at ON usage_ledger(at);
CREATE INDEX idx_usage_ledger_session ON usage_ledger(session_id);
-- Dropped with the old table: a key's totals are read by key (V10).
CREATE INDEX idx_usage_ledger_session_key ON usage_ledger(session_key);
